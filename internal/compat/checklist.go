package compat

import (
	"sort"
	"strings"

	"github.com/gpupick/gpupick/internal/msg"
)

// checklist builds 4-7 steps for a trial instance: the vendor's driver and
// toolkit check, the framework's device check, the needed kernels, the
// collectives and a short throughput run against gpupick's prediction.
func (c *checker) checklist() []msg.Msg {
	v := c.vendor
	steps := []msg.Msg{}
	tool := msg.Text(v.ToolCheck)
	if c.res.MinVersions["driver"] != "" {
		tool = msg.New("%s Expect driver >= %s (CUDA %s builds).", v.ToolCheck, c.res.MinVersions["driver"], c.res.MinVersions["cuda"])
	} else if k := c.vendor.Backend; c.res.MinVersions[k] != "" {
		tool = msg.New("%s Expect %s >= %s.", v.ToolCheck, backendLabel(k), c.res.MinVersions[k])
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
	// Each optional part holds the rest of the step as its last argument.
	var rest msg.Msg
	if want := c.res.MinVersions[fw]; want != "" {
		rest = msg.New(" and the version must be >= %s", want)
	}
	if c.a.ComputeCapability != "" {
		rest = msg.New("; the arch list must cover sm_%s%s", strings.ReplaceAll(c.a.ComputeCapability, ".", ""), rest)
	} else if c.a.GFXTarget != "" {
		rest = msg.New("; the device must report %s%s", c.a.GFXTarget, rest)
	}
	steps = append(steps, msg.New("Check that %s sees every device: `%s`%s.", c.fwName, dev, rest))

	type kernel struct {
		key  string // its English, the order the steps are listed in
		step msg.Msg
	}
	var kernels []kernel
	newKernel := func(m msg.Msg) kernel { return kernel{m.String(), m} }
	for _, n := range c.st.Needs {
		n = strings.ToLower(strings.TrimSpace(n))
		f := c.m.Features[n]
		if f == nil {
			if n != "" {
				kernels = append(kernels, newKernel(msg.New("%s: run the code path that uses it", n)))
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
		kernels = append(kernels, newKernel(msg.New("%s: %s", n, cmd)))
	}
	sort.SliceStable(kernels, func(i, j int) bool { return kernels[i].key < kernels[j].key })
	if len(kernels) > 0 {
		list := make([]msg.Msg, len(kernels))
		for i, k := range kernels {
			list[i] = k.step
		}
		steps = append(steps, msg.New("Prove the kernels and features the workload needs: %s.", msg.Join(msg.Clauses, list)))
	}
	steps = append(steps, msg.Text(v.CollectiveCheck))
	steps = append(steps, throughputStep(c.a.ID))
	return steps
}

func throughputStep(gpu string) msg.Msg {
	if gpu == "" {
		gpu = "ID"
	}
	return msg.New("Run 5 minutes of the real job (same model, sequence length, batch and precision) and compare the measured throughput and memory with `gpupick predict -f workload.yaml --gpu %s --gpus N -o json`; investigate before committing if it is more than 20%% below.", gpu)
}
