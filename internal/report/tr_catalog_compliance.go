package report

// trCompliance: internal/compliance, the verdict on each requirement.
var trCompliance = map[string]string{
	// certification.go
	"The catalog has no row for %s, so whether it holds %s is unknown; ask the provider for the certificate and its scope.":                                                                                 "目录中没有 %s 的记录，不知道它是否持有 %s；请向云厂商索取证书及其适用范围。",
	"The catalog does not list %s for %s: it may hold it without our knowing. Ask the provider for the %s certificate and its scope (services and regions), then add it to providers.yaml with its source.": "目录中没有记录 %[2]s 持有 %[1]s：它可能持有而我们不知道。请向云厂商索取 %[3]s 证书及其适用范围（服务和区域），再连同来源加入 providers.yaml。",
	"%s, which covers %s": "%s，覆盖 %s", // composed
	"%s holds %s for its China regions only (scope: %s), and the catalog does not know where region %s is; confirm it is a mainland-China region.":               "%s 仅在其中国区域持有 %s（范围：%s），而目录不知道区域 %s 位于何处；请确认它是中国大陆区域。",
	"%s holds %s; scope: %s, which includes mainland-China region %s.":                                                                                           "%s 持有 %s；范围：%s，包括中国大陆区域 %s。",
	"%s holds %s only for its China regions (scope: %s), and region %s is not one; ask the provider whether %s covers this region, or choose a region in scope.": "%s 仅在其中国区域持有 %s（范围：%s），区域 %s 不在其中；请向云厂商确认 %s 是否覆盖该区域，或选择范围内的区域。",
	"%s holds %s; scope: %s, which includes region %s.":                                                                                                          "%s 持有 %s；范围：%s，包括区域 %s。",
	"%s holds %s only in its government regions (scope: %s), and region %s is not one; ask the provider whether %s covers this region.":                          "%s 仅在其政府区域持有 %s（范围：%s），区域 %s 不在其中；请向云厂商确认 %s 是否覆盖该区域。",
	"%s lists %s with a limited or unconfirmed scope (%s); ask the provider whether it covers %s in %s.":                                                         "%s 列出的 %s 范围有限或未经确认（%s）；请向云厂商确认它是否覆盖 %[5]s 的 %[4]s。",
	"%s holds %s; scope: %s. Check that the GPU compute service of %s is in scope.":                                                                              "%s 持有 %s；范围：%s。请确认 %s 的 GPU 计算服务在范围内。",

	// compliance.go
	"preferred %s is %s: %s": "偏好要求 %s %s：%s",
	"preferred %s is %s":     "偏好要求 %s %s", // composed: a heading over several offers
	"certification:%s":       "认证 %s",      // a requirement's name
	" The catalog gives no source for this fact, so it is not counted as a pass; add the source to the catalog row.": "目录没有给出这一事实的来源，因此不算满足；请在目录记录中补充来源。",

	// confidential.go
	"%s is not sold as a confidential GPU VM; choose an instance type that is (for example Azure Standard_NCC40ads_H100_v5 or GCP a3-highgpu-1g with Intel TDX, each with one H100).": "%s 不作为机密 GPU 虚拟机出售；请选择机密 GPU 机型（例如 Azure Standard_NCC40ads_H100_v5 或带 Intel TDX 的 GCP a3-highgpu-1g，各含一块 H100）。",
	"%s has no GPU trusted execution environment; GPU confidential computing needs a Hopper or Blackwell GPU (H100, H200, B200) in CC mode behind an Intel TDX or AMD SEV-SNP host.":  "%s 没有 GPU 可信执行环境；GPU 机密计算需要 Hopper 或 Blackwell GPU（H100、H200、B200）工作在 CC 模式，并由 Intel TDX 或 AMD SEV-SNP 主机承载。",
	"%s offers no confidential GPU VMs (provider fact), so %s is not one; choose a provider that does.":                                                                               "%s 不提供机密 GPU 虚拟机（云厂商事实），因此 %s 也不是；请选择提供此类虚拟机的云厂商。",
	"whether %s is sold as a confidential GPU VM": "%s 是否作为机密 GPU 虚拟机出售",
	"whether %s has a GPU TEE":                    "%s 是否有 GPU TEE",
	"%s or %s":                                    "%s 或 %s", // composed
	"The catalog does not know %s; ask the provider for a confidential GPU VM with attestation before counting on it.":                                                                                                   "目录不知道 %s；在依赖它之前，请向云厂商确认提供带远程证明的机密 GPU 虚拟机。",
	"%s is a confidential GPU VM and %s has a GPU TEE. %s":                                                                                                                                                               "%s 是机密 GPU 虚拟机，%s 具备 GPU TEE。%s",
	"With %d GPUs in one VM, CC runs in protected-PCIe (multi-GPU) mode, which needs an 8-GPU HGX system with all GPUs given to one confidential VM; mixed modes are unsupported.":                                       "一台虚拟机有 %d 块 GPU 时，CC 以受保护 PCIe（多 GPU）模式运行，需要一台 8 卡 HGX 系统且所有 GPU 分配给同一台机密虚拟机；不支持混合模式。",
	"Full CC mode is one GPU per confidential VM: the %d GPUs run in %d separate VMs, so traffic between them leaves the TEE and must be encrypted by your software (or use an 8-GPU HGX offer in protected-PCIe mode).": "完整 CC 模式下每台机密虚拟机一块 GPU：%d 块 GPU 运行在 %d 台独立虚拟机中，它们之间的流量会离开 TEE，必须由您的软件加密（或使用受保护 PCIe 模式的 8 卡 HGX 实例）。",
	"Full CC mode gives this VM one GPU.":                                          "完整 CC 模式下该虚拟机只有一块 GPU。",
	" Blackwell single-GPU passthrough CC needs driver R580 (CUDA 13.0) or later.": "Blackwell 单 GPU 直通 CC 需要驱动 R580（CUDA 13.0）或更高版本。",
	" Hopper CC needs driver R550 (550.54.15, CUDA 12.4) or later.":                "Hopper CC 需要驱动 R550（550.54.15，CUDA 12.4）或更高版本。",
	" In CC mode pinned host memory is not supported and transfers go through encrypted bounce buffers, which costs throughput; attest the GPU (NVIDIA attestation SDK or nvattest) before sending data.": "CC 模式不支持锁页主机内存，传输经过加密的中转缓冲区，会降低吞吐；发送数据前请先对 GPU 做远程证明（NVIDIA attestation SDK 或 nvattest）。",

	// rules.go
	"The catalog has no row for region %s of %s, so where the data would be processed is unknown; add the region to regions.csv with its country and source, or choose a region the catalog knows.": "目录中没有 %[2]s 的区域 %[1]s，不知道数据会在哪里处理；请把该区域连同国家和来源加入 regions.csv，或选择目录已知的区域。",
	"Region %s of %s is not tied to one country in the catalog (country %q), so it cannot be matched against %s; ask the provider which country the capacity is in.":                                "%[2]s 的区域 %[1]s 在目录中不对应单一国家（国家 %[3]s），无法与 %[4]s 比对；请向云厂商确认算力所在国家。",
	"Region %s is in %s, an EU/EEA member, which the workload allows (%s).":                                                                                                                         "区域 %s 位于 %s，属于欧盟/欧洲经济区成员，工作负载允许（%s）。",
	"Region %s is in %s, mainland China, which the workload allows (%s).":                                                                                                                           "区域 %s 位于 %s（中国大陆），工作负载允许（%s）。",
	"Region %s is in %s, which the workload allows (%s).":                                                                                                                                           "区域 %s 位于 %s，工作负载允许（%s）。",
	" (Hong Kong is not mainland China)": "（香港不属于中国大陆）",
	"Region %s is in %s (Hong Kong is not mainland China), outside the allowed %s; choose a region of %s in one of those.":                                                                                                                                                                                            "区域 %s 位于 %s（香港不属于中国大陆），不在允许的 %s 之内；请选择 %s 在这些地区的区域。", // composed: the place and the note are two arguments side by side
	"Region %s is in %s%s, outside the allowed %s; choose a region of %s in one of those.":                                                                                                                                                                                                                            "区域 %s 位于 %s%s，不在允许的 %s 之内；请选择 %s 在这些地区的区域。",
	"The catalog has no row for region %s of %s, so it cannot tell whether PRC personal data would stay in mainland China (PIPL/CSL localisation); choose a mainland-China region the catalog knows.":                                                                                                                 "目录中没有 %[2]s 的区域 %[1]s，无法判断中国个人信息是否留在中国大陆（《个人信息保护法》/《网络安全法》本地化要求）；请选择目录已知的中国大陆区域。",
	"Region %s is in mainland China, so PRC personal data stays in the PRC as CSL Art. 37 and PIPL Art. 40 require of critical-information-infrastructure operators and handlers above the CAC volume threshold. MLPS 2.0 level 3 remains an assessment of your own system.":                                          "区域 %s 位于中国大陆，中国个人信息留在境内，符合《网络安全法》第 37 条和《个人信息保护法》第 40 条对关键信息基础设施运营者及处理量达到网信办门槛的处理者的要求。等保 2.0 三级仍需对您自己的系统进行测评。",
	"Region %s is in mainland China, so PRC personal data stays in the PRC as CSL Art. 37 and PIPL Art. 40 require of critical-information-infrastructure operators and handlers above the CAC volume threshold. MLPS 2.0 level 3 remains an assessment of your own system.%s":                                        "区域 %s 位于中国大陆，中国个人信息留在境内，符合《网络安全法》第 37 条和《个人信息保护法》第 40 条对关键信息基础设施运营者及处理量达到网信办门槛的处理者的要求。等保 2.0 三级仍需对您自己的系统进行测评。%s", // composed
	" %s's China regions are run by a local operator as a separate partition with separate accounts.":                                                                                                                                                                                                                 "%s 的中国区域由本地运营商作为独立分区运营，账号也相互独立。",
	"Region %s is in %s, outside mainland China: storing PRC personal data there is a cross-border transfer that needs a CAC security assessment, certification or the CAC standard contract (PIPL Art. 38), and is barred for CIIOs and high-volume handlers (PIPL Art. 40); choose a mainland-China region (cn-*).": "区域 %s 位于 %s，在中国大陆以外：在那里存储中国个人信息属于数据出境，需要通过网信办安全评估、个人信息保护认证或签订网信办标准合同（《个人信息保护法》第 38 条），关键信息基础设施运营者和大量处理者则不得出境（第 40 条）；请选择中国大陆区域（cn-*）。",
	"The catalog does not record where %s is headquartered, so exposure to %s jurisdiction is unknown; add hq_country and cloud_act to providers.yaml with a source.":                                                                                                                                                 "目录没有记录 %s 的总部所在地，不知道是否受 %s 管辖；请在 providers.yaml 中连同来源补充 hq_country 和 cloud_act。",
	"%s is headquartered in %s, a jurisdiction the workload excludes, in every region including %s; choose a provider headquartered elsewhere.":                                                                                                                                                                       "%s 总部位于 %s，是工作负载排除的司法管辖区，包括 %s 在内的所有区域都受影响；请选择总部在其他地方的云厂商。",
	"%s is headquartered in %s, a jurisdiction the workload excludes, in every region including %s; choose a provider headquartered elsewhere.%s":                                                                                                                                                                     "%s 总部位于 %s，是工作负载排除的司法管辖区，包括 %s 在内的所有区域都受影响；请选择总部在其他地方的云厂商。%s", // composed
	" The US CLOUD Act reaches its data wherever it is stored.": "无论数据存放在哪里，美国《云法案》都能触及。",
	"%s is headquartered in %s but the catalog records US CLOUD Act reach (a US parent or US operations): US authorities can compel disclosure of data it holds even in region %s; choose a provider without US reach.": "%s 总部位于 %s，但目录记录其受美国《云法案》管辖（有美国母公司或在美国运营）：即使数据在区域 %s，美国当局也可强制其披露；请选择不受美国管辖的云厂商。",
	"%s is headquartered in %s, outside the excluded %s":                                                                                                                  "%s 总部位于 %s，不在排除的 %s 之内",
	"%s is headquartered in %s, outside the excluded %s%s":                                                                                                                "%s 总部位于 %s，不在排除的 %s 之内%s", // composed
	", and the catalog records no US CLOUD Act reach":                                                                                                                     "，且目录未记录其受美国《云法案》管辖",
	"The catalog has no row for %s, so customer-managed keys are unknown; ask the provider.":                                                                              "目录中没有 %s 的记录，不知道是否支持客户管理密钥；请咨询云厂商。",
	"%s offers encryption at rest with customer-managed keys (provider fact; check the disk or storage type you attach supports it).":                                     "%s 提供使用客户管理密钥的静态加密（云厂商事实；请确认您挂载的磁盘或存储类型支持）。",
	"%s does not let customers manage the encryption keys (provider fact); choose a provider with CMEK/BYOK or encrypt the data yourself before it reaches the provider.": "%s 不允许客户管理加密密钥（云厂商事实）；请选择支持 CMEK/BYOK 的云厂商，或在数据到达云厂商之前自行加密。",
	"The catalog does not know whether %s offers customer-managed keys; ask the provider for CMEK/BYOK on GPU instance disks, or encrypt the data yourself.":              "目录不知道 %s 是否支持客户管理密钥；请向云厂商确认 GPU 实例磁盘是否支持 CMEK/BYOK，或自行加密数据。",
	"The catalog has no row for %s, so secure boot is unknown; ask the provider.":                                                                                         "目录中没有 %s 的记录，不知道是否支持安全启动；请咨询云厂商。",
	"bare-metal instance types do not support UEFI Secure Boot":                                                                                                           "裸金属机型不支持 UEFI 安全启动",
	"this family boots only in legacy BIOS mode, and UEFI Secure Boot needs UEFI":                                                                                         "该机型系列只能以传统 BIOS 模式启动，而 UEFI 安全启动需要 UEFI",
	"P3 (other than p3dn) is a pre-Nitro family [unverified], and UEFI Secure Boot needs a Nitro instance that supports UEFI":                                             "P3（p3dn 除外）是 Nitro 之前的机型系列［未核实］，而 UEFI 安全启动需要支持 UEFI 的 Nitro 实例",
	"%s offers secure boot, but on %s %s; choose another instance type, e.g. a current Nitro GPU family.":                                                                 "%s 支持安全启动，但在 %s 上%s；请选择其他机型，例如当前的 Nitro GPU 系列。",
	"%s offers secure boot with a virtual TPM (provider fact; enable it at launch with a UEFI image, and use signed GPU drivers).":                                        "%s 支持带虚拟 TPM 的安全启动（云厂商事实；启动时用 UEFI 镜像开启，并使用已签名的 GPU 驱动）。",
	"%s does not offer secure boot (provider fact); choose another provider.":                                                                                             "%s 不支持安全启动（云厂商事实）；请选择其他云厂商。",
	"The catalog does not know whether %s offers secure boot on GPU instances; ask the provider (UEFI Secure Boot and a vTPM).":                                           "目录不知道 %s 的 GPU 实例是否支持安全启动；请咨询云厂商（UEFI 安全启动和 vTPM）。",
}
