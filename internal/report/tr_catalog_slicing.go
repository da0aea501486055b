package report

// trSlicing: GPU slicing in internal/advisor (MIG replicas and their
// fleets).
var trSlicing = map[string]string{
	"%.4g requests/s within the SLO need more than %d MIG %s replicas (%d instances)":                                                                                                   "在 SLO 内承载 %.4g 请求/秒需要超过 %d 个 MIG %s 副本（%d 台实例）",
	"MIG %s replicas of %s: %d, each on %d/7 of the GPU's compute, %d/8 of its memory bandwidth and %g GB, %d to a GPU, %d to an instance (%d instances), serving %.3g requests/s each": "MIG %s 副本（%s）：%d 个，每个占 GPU 算力的 %d/7、显存带宽的 %d/8 和 %g GB，每块 GPU %d 个，每台实例 %d 个（共 %d 台实例），每个承载 %.3g 请求/秒",
	"%.4g requests/s within the SLO need more than %d time-sliced replicas, %d to a GPU (%d instances)":                                                                                 "在 SLO 内承载 %.4g 请求/秒需要超过 %d 个时间片副本（每块 GPU %d 个，%d 台实例）",
	"time-sliced replicas of %s: %d, %d to a GPU taking turns on all of it, each with %.0f%% of its throughput (a %d-way share less %.0f%% assumed lost to context switching; NVIDIA publishes no figure, %s) and %.3g GiB of its memory (no isolation: the replicas must fit side by side), %d to an instance (%d instances), serving %.3g requests/s each": "%s 的时间片副本：%d 个，每块 GPU %d 个，轮流使用整块 GPU，每个得到其吞吐的 %.0f%%（%d 路均分，再假定上下文切换损失 %.0f%%；NVIDIA 未公布数据，%s），显存各 %.3g GiB（无隔离：各副本须同时装得下），每台实例 %d 个（共 %d 台实例），每个承载 %.3g 请求/秒",
	"priced per slice on a shared pool (constraints.shared_gpus): %d replica(s) pay for %d of the %d slices of %d instance(s), the rest of the GPUs serve other workloads":                                                                                                                                                                                   "按切片计价（共享 GPU 池，constraints.shared_gpus）：%d 个副本支付 %d 个切片的费用（%[4]d 台实例共 %[3]d 个切片），GPU 的其余部分服务其他工作负载",
	"a shared GPU pool: the replicas pay for %.3g of the instances' price, the slices they hold":            "共享 GPU 池：副本按所占切片支付实例价格的 %.3g",
	"a shared GPU pool prices a service's replicas per slice; %s is a training job, which needs whole GPUs": "共享 GPU 池按切片为服务的副本计价；%s 是训练任务，需要整块 GPU",
}
