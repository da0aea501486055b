package compliance

import (
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
)

// confidential decides GPU confidential computing: the offer must be sold as
// a confidential GPU VM (a CPU TEE such as Intel TDX or AMD SEV-SNP with the
// GPU in CC mode) and its GPU must have a TEE. Either fact being no fails;
// either being unknown (and neither no) is unknown.
func confidential(f Facts) Requirement {
	q := Requirement{Name: ConfidentialComputing}
	o, g, p := f.Offer, f.GPU, f.Provider
	name := offerName(f)
	if o != nil && o.Confidential == catalog.No {
		q.Verdict, q.Source = Fail, o.Source
		q.Reason = msg.New("%s is not sold as a confidential GPU VM; choose an instance type that is (for example Azure Standard_NCC40ads_H100_v5 or GCP a3-highgpu-1g with Intel TDX, each with one H100).", name)
		return q
	}
	if g != nil && g.Confidential == catalog.No {
		q.Verdict, q.Source = Fail, g.Source
		q.Reason = msg.New("%s has no GPU trusted execution environment; GPU confidential computing needs a Hopper or Blackwell GPU (H100, H200, B200) in CC mode behind an Intel TDX or AMD SEV-SNP host.", gpuName(g))
		return q
	}
	if (o == nil || o.Confidential == catalog.Unknown) && p != nil && p.ConfidentialGPUVMs == catalog.No {
		q.Verdict, q.Source = Fail, p.Source
		q.Reason = msg.New("%s offers no confidential GPU VMs (provider fact), so %s is not one; choose a provider that does.", providerName(f), name)
		return q
	}
	if o == nil || o.Confidential != catalog.Yes || g == nil || g.Confidential != catalog.Yes {
		q.Verdict = Unknown
		var missing []msg.Msg
		if o == nil || o.Confidential != catalog.Yes {
			missing = append(missing, msg.New("whether %s is sold as a confidential GPU VM", name))
		}
		if g == nil || g.Confidential != catalog.Yes {
			missing = append(missing, msg.New("whether %s has a GPU TEE", gpuName(g)))
		}
		q.Reason = msg.New("The catalog does not know %s; ask the provider for a confidential GPU VM with attestation before counting on it.", joinOr(missing))
		return q
	}
	q.Verdict = Pass
	q.Source = joinSources("offer", o.Source, "GPU", g.Source, "limits", NVIDIACCSource)
	q.Reason = msg.New("%s is a confidential GPU VM and %s has a GPU TEE. %s", name, gpuName(g), ccLimits(f))
	return q
}

// ccLimits states what the GPU TEE allows for this shape and GPU
// generation (NVIDIA's confidential-computing documentation).
func ccLimits(f Facts) msg.Msg {
	per := f.Offer.GPUCount
	total := f.GPUs
	if total <= 0 {
		total = per
	}
	var s msg.Msg
	switch {
	case per > 1:
		s = msg.New("With %d GPUs in one VM, CC runs in protected-PCIe (multi-GPU) mode, which needs an 8-GPU HGX system with all GPUs given to one confidential VM; mixed modes are unsupported.", per)
	case total > 1:
		s = msg.New("Full CC mode is one GPU per confidential VM: the %d GPUs run in %d separate VMs, so traffic between them leaves the TEE and must be encrypted by your software (or use an 8-GPU HGX offer in protected-PCIe mode).", total, (total+per-1)/max(per, 1))
	default:
		s = msg.New("Full CC mode gives this VM one GPU.")
	}
	switch f.GPU.Architecture {
	case "blackwell":
		s = s.Then(msg.New("Blackwell single-GPU passthrough CC needs driver R580 (CUDA 13.0) or later."))
	case "hopper":
		s = s.Then(msg.New("Hopper CC needs driver R550 (550.54.15, CUDA 12.4) or later."))
	}
	return s.Then(msg.New("In CC mode pinned host memory is not supported and transfers go through encrypted bounce buffers, which costs throughput; attest the GPU (NVIDIA attestation SDK or nvattest) before sending data."))
}

func gpuName(g *catalog.Accelerator) string {
	switch {
	case g == nil:
		return "its GPU"
	case g.Name != "":
		return g.Name
	}
	return g.ID
}

// joinOr joins phrases as "a, b or c".
func joinOr(parts []msg.Msg) msg.Msg {
	switch len(parts) {
	case 0:
		return msg.Msg{}
	case 1:
		return parts[0]
	}
	out := parts[0]
	for _, p := range parts[1 : len(parts)-1] {
		out = msg.New("%s, %s", out, p)
	}
	return msg.New("%s or %s", out, parts[len(parts)-1])
}
