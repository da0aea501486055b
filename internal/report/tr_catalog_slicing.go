package report

// trSlicing: GPU slicing in internal/advisor (MIG replicas and their
// fleets).
var trSlicing = map[string]string{
	"%.4g requests/s within the SLO need more than %d MIG %s replicas (%d instances)": "在 SLO 内承载 %.4g 请求/秒需要超过 %d 个 MIG %s 副本（%d 台实例）",
	"MIG %s replicas of %s: %d, each on %d/7 of the GPU's compute, %d/8 of its memory bandwidth and %g GB, %d to a GPU, %d to an instance (%d instances), serving %.3g requests/s each": "MIG %s 副本（%s）：%d 个，每个占 GPU 算力的 %d/7、显存带宽的 %d/8 和 %g GB，每块 GPU %d 个，每台实例 %d 个（共 %d 台实例），每个承载 %.3g 请求/秒",
}
