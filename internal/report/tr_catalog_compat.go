package report

// trCompat: internal/compat, the software-stack verdicts, fixes and the
// proof-of-concept checklist.
var trCompat = map[string]string{
	// checklist.go
	" Expect driver >= %s (CUDA %s builds).":                 "预期驱动 >= %s（CUDA %s 构建）。",
	" Expect %s >= %s.":                                      "预期 %s >= %s。",
	"%s Expect driver >= %s (CUDA %s builds).":               "%s 预期驱动 >= %s（CUDA %s 构建）。", // composed
	"%s Expect %s >= %s.":                                    "%s 预期 %s >= %s。",            // composed
	"Check that %s sees every device: `%s`":                  "检查 %s 能看到每块设备：`%s`",
	"Check that %s sees every device: `%s`%s.":               "检查 %s 能看到每块设备：`%s`%s。", // composed
	"; the arch list must cover sm_%s":                       "；架构列表必须包含 sm_%s",
	"; the arch list must cover sm_%s%s":                     "；架构列表必须包含 sm_%s%s", // composed
	"; the device must report %s":                            "；设备必须报告 %s",
	"; the device must report %s%s":                          "；设备必须报告 %s%s", // composed
	" and the version must be >= %s":                         "，且版本必须 >= %s",
	"%s: run the code path that uses it":                     "%s：运行用到它的代码路径",
	"run the code path that uses it":                         "运行用到它的代码路径",
	"Prove the kernels and features the workload needs: %s.": "验证工作负载需要的算子和功能：%s。", // composed
	"Run 5 minutes of the real job (same model, sequence length, batch and precision) and compare the measured throughput and memory with `gpupick predict -f workload.yaml --gpu %s --gpus N -o json`; investigate before committing if it is more than 20%% below.": "用真实任务（相同的模型、序列长度、批大小和精度）运行 5 分钟，把实测吞吐和显存与 `gpupick predict -f workload.yaml --gpu %s --gpus N -o json` 对比；若低于预测 20%% 以上，签约前先查明原因。",

	// compat.go
	"the accelerator is not in the catalog, so its software support cannot be judged":                   "该加速卡不在目录中，无法判断其软件支持",
	"verify the stack on a trial instance":                                                              "在试用实例上验证软件栈",
	"gpupick knows no software stack for vendor %q of %s":                                               "gpupick 不了解 %[2]s 的厂商 %[1]s 的软件栈",
	"framework other (custom code) is not judged; only the needs are checked":                           "框架 \"other\"（自定义代码）不做判断；只检查所需功能",
	"gpupick's matrix has no entry for framework %s":                                                    "gpupick 的兼容矩阵中没有框架 %s",
	"verify the framework on a trial instance":                                                          "在试用实例上验证该框架",
	"cannot read the version constraint %q: %v":                                                         "无法解析版本约束 %q：%v",
	"write it as e.g. \">=2.4\" or \">=0.6, <0.8\"":                                                     "请写成 \">=2.4\" 或 \">=0.6, <0.8\" 这样的形式",
	"gpupick's matrix does not say whether %s runs on %s":                                               "gpupick 的兼容矩阵未说明 %s 能否在 %s 上运行",
	"verify on a trial instance":                                                                        "在试用实例上验证",
	"%s on %s: %s":                                                                                      "%s 在 %s 上：%s",
	"%s runs on %s through %s; cost: %s":                                                                "%s 通过 %[3]s 在 %[2]s 上运行；代价：%[4]s",
	"%s needs compute capability %s or newer; %s is %s":                                                 "%s 需要计算能力 %s 或更高；%s 为 %s",
	"choose a newer GPU":                                                                                "选择更新的 GPU",
	"Intel Gaudi software":                                                                              "Intel Gaudi 软件栈",
	"CUDA %s is not in the matrix":                                                                      "兼容矩阵中没有 CUDA %s",
	"CUDA %s cannot target compute capability %s (its floor is %s%s)":                                   "CUDA %s 无法面向计算能力 %s（其下限为 %s%s）",
	"the release needs compute capability %s or newer":                                                  "该版本需要计算能力 %s 或更高",
	"CUDA %s predates compute capability %s (it targets up to %s)":                                      "CUDA %s 早于计算能力 %s（最高只支持 %s）",
	"its CUDA %s wheels are built for %s, which does not include sm_%s":                                 "其 CUDA %s 预编译包针对 %s 构建，不包含 sm_%s",
	"ROCm %q is not a version":                                                                          "ROCm %q 不是有效版本",
	"ROCm %s predates %s (%s needs ROCm %s+)":                                                           "ROCm %s 早于 %s（%s 需要 ROCm %s+）",
	"gpupick's matrix does not know which ROCm supports %s":                                             "gpupick 的兼容矩阵不知道哪个 ROCm 版本支持 %s",
	"gpupick does not know the build +%s":                                                               "gpupick 不认识构建 +%s",
	"verify the build on a trial instance":                                                              "在试用实例上验证该构建",
	"the +cpu build of %s cannot use %s":                                                                "%s 的 +cpu 构建无法使用 %s",
	"install a %s build":                                                                                "安装 %s 构建",
	"+%s is a %s build of %s; %s needs a %s build":                                                      "+%s 是 %[3]s 的 %[2]s 构建；%[4]s 需要 %[5]s 构建",
	"drop the +%s pin or use a %s build":                                                                "去掉 +%s 版本锁定，或使用 %s 构建",
	"%s (on %s)":                                                                                        "%s（基于 %s）",
	" (experimental wheels)":                                                                            "（实验性预编译包）",
	"%s runs %s %s with %s %s builds%s":                                                                 "%s 可运行 %s %s（%s %s 构建）%s",
	"%s runs %s on %s %s with %s %s builds%s":                                                           "%[1]s 可运行基于 %[3]s %[4]s 的 %[2]s（%[5]s %[6]s 构建）%[7]s",
	"gpupick's matrix lists no %s release matching %q":                                                  "gpupick 的兼容矩阵中没有符合 %[2]s 的 %[1]s 版本",
	"verify the version on a trial instance (the matrix may predate it)":                                "在试用实例上验证该版本（兼容矩阵可能早于该版本）",
	"gpupick's matrix lists %s builds of %s only up to %s; newer releases are not judged":               "gpupick 的兼容矩阵只收录到 %[3]s 为止的 %[2]s %[1]s 构建；更新的版本不做判断",
	"%s %s has no %s build for it":                                                                      "%s %s 没有适用的 %s 构建",
	"no %s release in %q has a %s build":                                                                "%[2]s 范围内的 %[1]s 版本都没有 %[3]s 构建",
	"the +%s build of %s does not run on %s (%s)":                                                       "%[2]s 的 +%[1]s 构建无法在 %[3]s 上运行（%[4]s）",
	"use the %s %s build of %s %s instead":                                                              "改用 %[3]s %[4]s 的 %[1]s %[2]s 构建",
	"%s needs %s >= %s with %s %s builds; %s":                                                           "%s 需要 %s >= %s（%s %s 构建）；%s",
	"allow %s >= %s (%s %s build)":                                                                      "允许 %s >= %s（%s %s 构建）",
	"no %s release in gpupick's matrix has a %s build for %s; %s":                                       "gpupick 的兼容矩阵中没有任何 %[1]s 版本有适用于 %[3]s 的 %[2]s 构建；%[4]s",
	"choose another accelerator or framework":                                                           "选择其他加速卡或框架",
	"the offer's default driver %s is older than the %s that CUDA %s builds need, but %s is selectable": "该实例的默认驱动 %s 低于 CUDA %[3]s 构建所需的 %[2]s，但可以选择 %[4]s",
	"select the image with driver %s":                                                                   "选择驱动为 %s 的镜像",
	"the offer's driver %s is older than %s, which CUDA %s builds need":                                 "该实例的驱动 %s 低于 CUDA %[3]s 构建所需的 %[2]s",
	"%s (CUDA 12 minor-version compatibility may let it run, without newer-driver features)":            "%s（CUDA 12 次版本兼容性也许能让它运行，但没有新驱动的功能）", // composed
	"upgrade the driver or use an image with driver >= %s":                                              "升级驱动，或使用驱动 >= %s 的镜像",
	"install driver >= %s on the instance (the offer lets you choose the driver)":                       "在实例上安装驱动 >= %s（该实例允许自选驱动）",
	"gpupick does not know the need %q, so it cannot judge it on %s":                                    "gpupick 不认识所需功能 %q，无法在 %s 上判断",
	"verify it on a trial instance":                                                                     "在试用实例上验证",
	"%s; cost: %s":                                                                                      "%s；代价：%s",   // composed: an outcome's text and cost
	"%s. Fix: %s":                                                                                       "%s。解决办法：%s", // composed by the renderers

	// version.go: version constraints from stack.version
	"empty version":                     "版本为空",
	"version %q has too many parts":     "版本 %q 的段数过多",
	"%q is not a version":               "%q 不是有效版本",
	"empty clause in %q":                "%q 中有空的条件",
	"bad local version in %q":           "%q 中的本地版本号无效",
	"bad clause %q: %v":                 "无效条件 %q：%v",
	"wildcard with %s in %q":            "%[2]s 中 %[1]s 不能与通配符同用",
	"~= needs at least two parts in %q": "%q 中 ~= 至少需要两段版本号",
	"%q is not a compute capability list (want e.g. 8.0;9.0+PTX)": "%q 不是计算能力列表（应为 8.0;9.0+PTX 这样的形式）",
}
