package probe

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"
)

// ParseCPUInfo reads /proc/cpuinfo: the model name, logical CPUs
// (processor entries) and physical cores (distinct physical id and core id
// pairs; equal to the logical CPUs where the file does not say).
func ParseCPUInfo(b []byte) CPU {
	var c CPU
	cores := map[string]bool{}
	var phys, core string
	flush := func() {
		if core != "" {
			cores[phys+"/"+core] = true
		}
		phys, core = "", ""
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch k {
		case "processor":
			flush()
			c.Threads++
		case "model name", "Model Name":
			if c.Model == "" {
				c.Model = v
			}
		case "physical id":
			phys = v
		case "core id":
			core = v
		}
	}
	flush()
	c.Cores = len(cores)
	if c.Cores == 0 {
		c.Cores = c.Threads
	}
	return c
}

// ParseMemInfo returns MemTotal of /proc/meminfo in GiB; 0 when absent.
func ParseMemInfo(b []byte) float64 {
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "MemTotal:"); ok {
			f := strings.Fields(rest)
			if len(f) == 0 {
				return 0
			}
			kb, err := strconv.ParseFloat(f[0], 64)
			if err != nil {
				return 0
			}
			return kb / (1 << 20)
		}
	}
	return 0
}

// ParseOSRelease returns PRETTY_NAME of /etc/os-release, unquoted.
func ParseOSRelease(b []byte) string {
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "PRETTY_NAME="); ok {
			if u, err := strconv.Unquote(v); err == nil {
				return u
			}
			return strings.Trim(v, `"'`)
		}
	}
	return ""
}
