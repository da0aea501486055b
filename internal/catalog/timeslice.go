package catalog

import "fmt"

// TimeSlicedAccelerator is what one of k replicas time-sliced on a (the
// NVIDIA device plugin's sharing.timeSlicing with replicas: k) gives its
// user: share of every compute peak and of the memory bandwidth (at most
// 1/k: the GPU's time split k ways, less what context switching costs),
// and a k-th of the memory, since time-slicing neither partitions nor
// isolates memory and the k replicas must fit side by side. Like a MIG
// slice it has no GPU-to-GPU link and no MIG of its own. k >= 2,
// 0 < share <= 1/k.
func TimeSlicedAccelerator(a *Accelerator, k int, share float64) *Accelerator {
	return partOf(a, fmt.Sprintf("%s time-sliced 1/%d", a.Name, k), a.MemGiB/float64(k), share, share)
}
