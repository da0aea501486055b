package compat

import (
	"fmt"
	"sort"
	"strings"
)

// checklist builds 4-7 steps for a trial instance: the vendor's driver and
// toolkit check, the framework's device check, the needed kernels, the
// collectives and a short throughput run against gpupick's prediction.
func (c *checker) checklist() []string {
	v := c.vendor
	steps := []string{}
	tool := v.ToolCheck
	if c.res.MinVersions["driver"] != "" {
		tool += fmt.Sprintf(" Expect driver >= %s (CUDA %s builds).", c.res.MinVersions["driver"], c.res.MinVersions["cuda"])
	} else if k := c.vendor.Backend; c.res.MinVersions[k] != "" {
		tool += fmt.Sprintf(" Expect %s >= %s.", backendLabel(k), c.res.MinVersions[k])
	}
	steps = append(steps, tool)

	dev := v.DeviceCheck
	if c.deviceCheck != "" {
		dev = c.deviceCheck
	}
	fw := string(c.st.Framework)
	if fw == "" {
		fw = "pytorch"
	}
	step := fmt.Sprintf("Check that %s sees every device: `%s`", c.fwName, dev)
	if c.a.ComputeCapability != "" {
		step += fmt.Sprintf("; the arch list must cover sm_%s", strings.ReplaceAll(c.a.ComputeCapability, ".", ""))
	} else if c.a.GFXTarget != "" {
		step += fmt.Sprintf("; the device must report %s", c.a.GFXTarget)
	}
	if want := c.res.MinVersions[fw]; want != "" {
		step += fmt.Sprintf(" and the version must be >= %s", want)
	}
	steps = append(steps, step+".")

	var kernels []string
	for _, n := range c.st.Needs {
		n = strings.ToLower(strings.TrimSpace(n))
		f := c.m.Features[n]
		if f == nil {
			if n != "" {
				kernels = append(kernels, fmt.Sprintf("%s: run the code path that uses it", n))
			}
			continue
		}
		cmd := f.Check[c.a.Vendor]
		if cmd == "" {
			cmd = f.Check["default"]
		}
		if cmd == "" {
			cmd = "run the code path that uses it"
		}
		kernels = append(kernels, fmt.Sprintf("%s: %s", n, cmd))
	}
	sort.Strings(kernels)
	if len(kernels) > 0 {
		steps = append(steps, "Prove the kernels and features the workload needs: "+strings.Join(kernels, "; ")+".")
	}
	steps = append(steps, v.CollectiveCheck)
	steps = append(steps, throughputStep(c.a.ID))
	return steps
}

func throughputStep(gpu string) string {
	if gpu == "" {
		gpu = "ID"
	}
	return fmt.Sprintf("Run 5 minutes of the real job (same model, sequence length, batch and precision) and compare the measured throughput and memory with `gpupick predict -f workload.yaml --gpu %s --gpus N -o json`; investigate before committing if it is more than 20%% below.", gpu)
}
