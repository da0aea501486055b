package probe

import (
	"os"
	"syscall"
	"unsafe"
)

// openForRead opens name with O_DIRECT, so reads bypass the page cache,
// and falls back to a plain open where the file system refuses it (tmpfs,
// some overlay and network file systems). direct says which it got.
func openForRead(name string) (f *os.File, direct bool, err error) {
	fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_DIRECT|syscall.O_CLOEXEC, 0)
	if err == nil {
		f = os.NewFile(uintptr(fd), name)
		// Some file systems accept the flag and fail the first read.
		if _, err := f.ReadAt(alignedBuffer(randBlock), 0); err == nil {
			return f, true, nil
		}
		f.Close()
	}
	f, err = os.Open(name)
	return f, false, err
}

// alignedBuffer returns n bytes starting at a 4 KiB boundary, as O_DIRECT
// requires.
func alignedBuffer(n int) []byte {
	const align = 4096
	b := make([]byte, n+align)
	off := int(uintptr(unsafe.Pointer(&b[0])) & (align - 1))
	if off != 0 {
		off = align - off
	}
	return b[off : off+n : off+n]
}

// freeBytes is the space available to this user under path; 0 = unknown.
func freeBytes(path string) int64 {
	var st syscall.Statfs_t
	if syscall.Statfs(path, &st) != nil {
		return 0
	}
	return int64(st.Bavail) * int64(st.Bsize)
}
