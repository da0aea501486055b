package probe

import (
	"os"
	"path/filepath"
	"testing"
)

// seed adds every recorded tool output as a seed of f.
func seed(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "tools", "*"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

func FuzzParseNvidiaSMI(f *testing.F) {
	seed(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		gpus, err := ParseNvidiaSMI(b)
		if err == nil && len(gpus) == 0 {
			t.Error("no error and no GPUs")
		}
	})
}

func FuzzParseTopo(f *testing.F) {
	seed(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		if tp, err := ParseTopo(b); err == nil {
			for _, row := range tp.Matrix {
				if len(row) != len(tp.Matrix) {
					t.Fatalf("ragged matrix %v", tp.Matrix)
				}
			}
		}
	})
}

func FuzzParseRocmSMI(f *testing.F) {
	seed(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		ParseRocmSMI(b)
		ParseAMDSMI(b)
		ParseHLSMI(b)
		ParseNeuronLS(b)
	})
}

func FuzzParsePython(f *testing.F) {
	seed(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		ParsePython(b)
		ParseBench(b)
		ParseCUDAVersion(b)
		ParseCPUInfo(b)
		ParseMemInfo(b)
		ParseOSRelease(b)
		ReadReport(b)
	})
}
