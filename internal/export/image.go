package export

import (
	"fmt"
	"strconv"

	"github.com/gpupick/gpupick/internal/workload"
)

// Image generation. A service (image.requests_per_second) runs as a
// Deployment and Service, scaled by KEDA, like an LLM service; an offline
// job (image.images) runs as an Indexed Job whose pods each render their
// share of the images.
//
// gpupick ships no image-generation server. For a TensorRT pipeline the
// server is NVIDIA Triton Inference Server, whose image is public and whose
// command line, health path and queue metric are documented; the model
// repository (the TensorRT engines and their config.pbtxt) is the user's,
// named by MODEL_REPOSITORY. For diffusers, diffusers-compile, ONNX
// Runtime, OpenVINO and the rest, and for every offline job, the image is
// ImageRequired: a value the user sets, which no registry serves (the
// kubelet reports InvalidImageName), rather than a made-up command.

const (
	// ImageRequired stands for the container image the user must set where
	// gpupick ships no server (or renderer) for an image-generation stack.
	// Upper-case letters make it an invalid image reference, so a manifest
	// applied without setting it fails at once.
	ImageRequired = "REQUIRED-set-your-image"
	// tritonImage is NVIDIA Triton Inference Server (nvcr.io, NGC), the
	// server of a TensorRT image pipeline.
	tritonImage = "nvcr.io/nvidia/tritonserver:25.01-py3"
	// modelRepositoryRequired stands for the Triton model repository.
	modelRepositoryRequired = "REQUIRED: the s3://, gs:// or mounted path of your Triton model repository"
	// imageQueueMetric is the gauge a server gpupick does not know must
	// publish for the ScaledObject: requests accepted and not yet in a
	// pipeline call.
	imageQueueMetric = "image_requests_waiting"
	// imageInFlightMetric is the gauge for the in_flight metric: requests
	// accepted and not yet answered.
	imageInFlightMetric = "image_requests_in_flight"
)

// IsService says whether the workload is a long-running server (a
// Deployment and Service, scaled by KEDA) rather than a run that ends (a
// Job): LLM inference, and image generation given as a request rate.
func IsService(s *workload.Spec) bool {
	if s == nil {
		return false
	}
	switch s.Kind {
	case workload.KindLLMInference:
		return true
	case workload.KindImageGeneration:
		return s.Image != nil && s.Image.RequestsPerSecond != nil
	}
	return false
}

// KubernetesFile is the file the Kubernetes objects of s go to:
// FileDeployment for a service, FileJob for a run that ends.
func KubernetesFile(s *workload.Spec) string {
	if IsService(s) {
		return FileDeployment
	}
	return FileJob
}

// imageGenImage is the default image of an image-generation workload and
// whether gpupick has one: Triton for a TensorRT service on NVIDIA GPUs,
// else ImageRequired.
func imageGenImage(s *workload.Spec, vendor string, service bool) (string, bool) {
	if service && s.Stack.Framework == workload.FrameworkTensorRT && vendor == "nvidia" {
		return tritonImage, true
	}
	return ImageRequired, false
}

// imageGen says whether the workload generates images.
func (r *resolved) imageGen() bool { return r.Spec.Kind == workload.KindImageGeneration }

// triton says whether the replicas run Triton Inference Server.
func (r *resolved) triton() bool {
	return r.imageGen() && r.service && r.Spec.Stack.Framework == workload.FrameworkTensorRT && !r.imageRequired
}

// imageEnv is what the plan was priced with, for the server or renderer to
// read: the image size and steps.
func (r *resolved) imageEnv() []envVar {
	var env []envVar
	if im := r.Spec.Image; im != nil {
		for _, v := range []struct {
			name string
			n    int
		}{{"IMAGE_WIDTH", im.Width}, {"IMAGE_HEIGHT", im.Height}, {"IMAGE_STEPS", im.Steps}} {
			if v.n > 0 {
				env = append(env, envVar{Name: v.name, Value: strconv.Itoa(v.n)})
			}
		}
	}
	return env
}

// shards is the pods an offline image job's images are split over.
func (r *resolved) shards() int {
	if r.imageGen() && !r.service {
		return max(1, r.Shards)
	}
	return 1
}

// imagesTotal is an offline job's images (0 when not given).
func (r *resolved) imagesTotal() int {
	if r.Spec.Image == nil {
		return 0
	}
	return int(r.Spec.Image.Images)
}

// shardEnv tells each pod of an offline image job its share: Kubernetes
// sets JOB_COMPLETION_INDEX (0 to IMAGE_SHARDS-1) in an Indexed Job; pod i
// renders images [i*IMAGES_PER_SHARD, min((i+1)*IMAGES_PER_SHARD, IMAGES_TOTAL)).
func (r *resolved) shardEnv() []envVar {
	n := r.shards()
	env := []envVar{{Name: "IMAGE_SHARDS", Value: strconv.Itoa(n)}}
	if total := r.imagesTotal(); total > 0 {
		env = append(env, envVar{Name: "IMAGES_TOTAL", Value: strconv.Itoa(total)},
			envVar{Name: "IMAGES_PER_SHARD", Value: strconv.Itoa(ceilDiv(total, n))})
	}
	return env
}

// imageContainer fills c, the container of an image-generation pod: Triton
// with its documented command line and health path, or the user's image
// (ImageRequired) with its own entrypoint.
func (r *resolved) imageContainer(c *container) {
	c.Env = append(c.Env, r.imageEnv()...)
	if !r.service {
		c.Env = append(c.Env, r.shardEnv()...)
		return
	}
	c.Ports = []containerPort{{Name: "http", ContainerPort: servingPort}}
	if !r.triton() {
		return // the image's entrypoint serves on servingPort; its health path is unknown
	}
	c.Env = append(c.Env, envVar{Name: "MODEL_REPOSITORY", Value: modelRepositoryRequired})
	c.Command = []string{"tritonserver"}
	c.Args = []string{"--model-repository=$(MODEL_REPOSITORY)", "--http-port=" + strconv.Itoa(servingPort), "--metrics-port=8002"}
	c.Ports = append(c.Ports, containerPort{Name: "metrics", ContainerPort: 8002})
	sp, rp := startupBudget, probe{PeriodSeconds: 10, FailureThreshold: 3}
	sp.HTTPGet = httpGet{Path: "/v2/health/ready", Port: "http"}
	rp.HTTPGet = sp.HTTPGet
	c.StartupProbe, c.ReadinessProbe = &sp, &rp
}

// imageComments are the comments on an image-generation pod's container.
func (r *resolved) imageComments(comments map[string]string) {
	var what string
	switch {
	case r.triton():
		what = "Triton Inference Server serves the TensorRT pipeline from MODEL_REPOSITORY: a model repository (one directory per model with config.pbtxt\n" +
			"and the engines, e.g. built with NVIDIA's TensorRT diffusion demo or Triton's Stable Diffusion tutorial) that you build and set."
	case r.service:
		what = fmt.Sprintf("gpupick ships no image-generation server for %s: image is a required value. Its entrypoint (or a command: you add) must serve HTTP on\n"+
			"port %d and read MODEL; add a readinessProbe on its health path.", frameworkOf(r.Spec), servingPort)
	default:
		what = fmt.Sprintf("gpupick ships no image renderer for %s: image is a required value. Its entrypoint (or a command: you add) renders MODEL's images\n"+
			"[JOB_COMPLETION_INDEX*IMAGES_PER_SHARD, min((JOB_COMPLETION_INDEX+1)*IMAGES_PER_SHARD, IMAGES_TOTAL)) and skips those already written (a retry).", frameworkOf(r.Spec))
	}
	if c, ok := comments["spec.template.spec.containers"]; ok {
		what += "\n" + c
	}
	comments["spec.template.spec.containers"] = what
}
