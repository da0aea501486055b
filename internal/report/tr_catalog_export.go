package report

// trExport: internal/export's sentences for people outside the documents
// (the documents themselves are English, as the projects they configure
// are): where each software family's candidates went, the image to give
// where gpupick has none, and why a family has no SkyPilot task. The
// command line prints them on stderr and the API returns them as notes.
// TestExportSentencesTranslated keeps this map complete.
var trExport = map[string]string{
	"The %s candidates (%s) need another image: their failover list is a SkyPilot task of its own, %s.":                                        "%s 的候选（%s）需要另一个镜像：它们的故障切换列表是单独的 SkyPilot 任务 %s。",
	"The %s candidates (%s) have no SkyPilot task: %s; to export them, choose offer %s and give its image.":                                    "%s 的候选（%s）没有 SkyPilot 任务：%s；如需导出，请选择实例 %s 并给出它的镜像。",
	"The %s candidates (%s) have no SkyPilot task: %s.":                                                                                        "%s 的候选（%s）没有 SkyPilot 任务：%s。",
	"The %s candidates (%s) need another image and device plugin: these manifests leave them out; choose offer %s to export them.":             "%s 的候选（%s）需要另一个镜像和设备插件：这些清单不包含它们；如需导出，请选择实例 %s。",
	"no default image for %s on the %s family; give one: %s":                                                                                   "%[2]s 系列上没有 %[1]s 的默认镜像；请给出一个：%[3]s",
	"no offer SkyPilot can launch: %s":                                                                                                         "没有 SkyPilot 能启动的实例：%s",
	"no SkyPilot cloud for %s":                                                                                                                 "SkyPilot 不支持 %s 云",
	"fewer than %d accelerators on %d node(s): %s":                                                                                             "%[2]d 个节点上少于 %[1]d 块加速卡：%[3]s",
	"SkyPilot runs no container image on a TPU VM, and %s on TPUs needs one: deploy it on GKE with the Kubernetes objects, or serve with vllm": "SkyPilot 在 TPU VM 上不运行容器镜像，而 TPU 上的 %s 需要镜像：请用 Kubernetes 对象部署到 GKE，或改用 vllm 推理",
	"want k8s, keda, karpenter, skypilot or all, got %q":                                                                                       "应为 k8s、keda、karpenter、skypilot 或 all，实际为 %q",
	// imageHint: the image to give, per family and framework.
	"an AWS Neuron vLLM Deep Learning Container whose tag matches your instances and Neuron SDK (public.ecr.aws/neuron/pytorch-inference-vllm-neuronx:TAG)":                                                 "标签与您的实例和 Neuron SDK 相符的 AWS Neuron vLLM 深度学习容器（public.ecr.aws/neuron/pytorch-inference-vllm-neuronx:TAG）",
	"an AWS Neuron PyTorch training Deep Learning Container whose tag matches your Neuron SDK (public.ecr.aws/neuron/pytorch-training-neuronx:TAG)":                                                         "标签与您的 Neuron SDK 相符的 AWS Neuron PyTorch 训练深度学习容器（public.ecr.aws/neuron/pytorch-training-neuronx:TAG）",
	"a vLLM image built on Intel's Gaudi PyTorch container of your Gaudi software release (vault.habana.ai/gaudi-docker/VERSION/ubuntu22.04/habanalabs/pytorch-installer-TORCH) with the vllm-gaudi plugin": "基于与您的 Gaudi 软件版本对应的 Intel Gaudi PyTorch 容器（vault.habana.ai/gaudi-docker/VERSION/ubuntu22.04/habanalabs/pytorch-installer-TORCH）并装有 vllm-gaudi 插件的 vLLM 镜像",
	"Intel's Gaudi PyTorch container of your Gaudi software release (vault.habana.ai/gaudi-docker/VERSION/ubuntu22.04/habanalabs/pytorch-installer-TORCH)":                                                  "与您的 Gaudi 软件版本对应的 Intel Gaudi PyTorch 容器（vault.habana.ai/gaudi-docker/VERSION/ubuntu22.04/habanalabs/pytorch-installer-TORCH）",
	"a vllm-ascend image whose tag matches your NPUs and CANN driver (quay.io/ascend/vllm-ascend:TAG)":                                                                                                      "标签与您的 NPU 和 CANN 驱动相符的 vllm-ascend 镜像（quay.io/ascend/vllm-ascend:TAG）",
	"an image with torch_npu on the CANN toolkit of your driver (built from quay.io/ascend/cann:TAG)":                                                                                                       "在与您的驱动对应的 CANN 工具包上装有 torch_npu 的镜像（基于 quay.io/ascend/cann:TAG 构建）",
	"a PyTorch/XLA image for TPU VMs (us-central1-docker.pkg.dev/tpu-pytorch-releases/docker/xla:TAG)":                                                                                                      "用于 TPU VM 的 PyTorch/XLA 镜像（us-central1-docker.pkg.dev/tpu-pytorch-releases/docker/xla:TAG）",
	"an image with %s built for TPUs, or serve with vllm, whose TPU image gpupick knows":                                                                                                                    "为 TPU 构建的 %s 镜像，或改用 vllm 推理（gpupick 知道它的 TPU 镜像）",
	"your own image, built for %s":            "您自己的、为 %s 构建的镜像",
	"an image with %s built for %s":           "为 %[2]s 构建的 %[1]s 镜像",
	"Printed %s only; -o DIR also writes %s.": "只打印了 %s；用 -o DIR 还会写出 %s。", // the command line's, beside the notes
}
