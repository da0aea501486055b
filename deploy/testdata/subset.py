# python3 subset.py > kubernetes-v1.30-subset.json writes strict JSON Schema
# definitions for the Kubernetes kinds deploy/kubernetes uses, in the style of
# yannh/kubernetes-json-schema's *-standalone-strict files (types allow null,
# additionalProperties false), descriptions dropped.
import json, sys
S=lambda: {"type":["string","null"]}
I=lambda: {"type":["integer","null"]}
B=lambda: {"type":["boolean","null"]}
O=lambda: {"type":["object","null"]}           # a known field whose contents these manifests do not use
R=lambda n: {"$ref":"#/definitions/"+n}
A=lambda x: {"type":["array","null"],"items":x}
M=lambda x: {"type":["object","null"],"additionalProperties":x}
IOS=lambda: {"type":["integer","string","null"]} # IntOrString
Q=lambda: {"type":["integer","number","string","null"]} # Quantity
def obj(props, required=()):
    d={"type":["object","null"],"properties":props,"additionalProperties":False}
    if required: d["required"]=list(required)
    return d
def kind(api, k, props, required=()):
    p={"apiVersion":{"type":["string","null"],"enum":[api]},"kind":{"type":["string","null"],"enum":[k]},"metadata":R("ObjectMeta")}
    p.update(props)
    d=obj(p, required); d["type"]="object"; return d
D={}
D["ObjectMeta"]=obj({k:S() for k in ["generateName","name","namespace","resourceVersion","selfLink","uid","creationTimestamp","deletionTimestamp"]}|
  {"annotations":M(S()),"labels":M(S()),"deletionGracePeriodSeconds":I(),"finalizers":A(S()),"generation":I(),"managedFields":A(O()),"ownerReferences":A(O())})
D["LabelSelectorRequirement"]=obj({"key":S(),"operator":S(),"values":A(S())},["key","operator"])
D["LabelSelector"]=obj({"matchExpressions":A(R("LabelSelectorRequirement")),"matchLabels":M(S())})
# core/v1 PodSpec and Container: property lists as in yannh master-local/podspec-v1.json
# and container.json (commit 491f6d0b), less the fields newer than v1.30.
D["PodSpec"]=obj({"activeDeadlineSeconds":I(),"affinity":O(),"automountServiceAccountToken":B(),"containers":A(R("Container")),
  "dnsConfig":O(),"dnsPolicy":S(),"enableServiceLinks":B(),"ephemeralContainers":A(O()),"hostAliases":A(O()),"hostIPC":B(),
  "hostNetwork":B(),"hostPID":B(),"hostUsers":B(),"hostname":S(),"imagePullSecrets":A(O()),"initContainers":A(R("Container")),
  "nodeName":S(),"nodeSelector":M(S()),"os":O(),"overhead":M(Q()),"preemptionPolicy":S(),"priority":I(),"priorityClassName":S(),
  "readinessGates":A(O()),"resourceClaims":A(O()),"restartPolicy":{"type":["string","null"],"enum":["Always","OnFailure","Never",None]},
  "runtimeClassName":S(),"schedulerName":S(),"schedulingGates":A(O()),"securityContext":R("PodSecurityContext"),
  "serviceAccount":S(),"serviceAccountName":S(),"setHostnameAsFQDN":B(),"shareProcessNamespace":B(),"subdomain":S(),
  "terminationGracePeriodSeconds":I(),"tolerations":A(O()),"topologySpreadConstraints":A(R("TopologySpreadConstraint")),
  "volumes":A(R("Volume"))},["containers"])
D["Container"]=obj({"args":A(S()),"command":A(S()),"env":A(R("EnvVar")),"envFrom":A(O()),"image":S(),
  "imagePullPolicy":{"type":["string","null"],"enum":["Always","Never","IfNotPresent",None]},"lifecycle":R("Lifecycle"),
  "livenessProbe":R("Probe"),"name":S(),"ports":A(R("ContainerPort")),"readinessProbe":R("Probe"),"resizePolicy":A(O()),
  "resources":R("ResourceRequirements"),"restartPolicy":S(),"securityContext":R("SecurityContext"),"startupProbe":R("Probe"),
  "stdin":B(),"stdinOnce":B(),"terminationMessagePath":S(),"terminationMessagePolicy":S(),"tty":B(),"volumeDevices":A(O()),
  "volumeMounts":A(R("VolumeMount")),"workingDir":S()},["name"])
D["EnvVar"]=obj({"name":S(),"value":S(),"valueFrom":R("EnvVarSource")},["name"])
D["EnvVarSource"]=obj({"configMapKeyRef":O(),"fieldRef":O(),"resourceFieldRef":O(),"secretKeyRef":R("SecretKeySelector")})
D["SecretKeySelector"]=obj({"key":S(),"name":S(),"optional":B()},["key"])
D["ContainerPort"]=obj({"containerPort":{"type":"integer","minimum":1,"maximum":65535},"hostIP":S(),"hostPort":I(),"name":S(),
  "protocol":{"type":["string","null"],"enum":["TCP","UDP","SCTP",None]}},["containerPort"])
D["ResourceRequirements"]=obj({"claims":A(O()),"limits":M(Q()),"requests":M(Q())})
D["HTTPGetAction"]=obj({"host":S(),"httpHeaders":A(O()),"path":S(),"port":IOS(),"scheme":S()},["port"])
D["Probe"]=obj({"exec":O(),"failureThreshold":I(),"grpc":O(),"httpGet":R("HTTPGetAction"),"initialDelaySeconds":I(),
  "periodSeconds":I(),"successThreshold":I(),"tcpSocket":O(),"terminationGracePeriodSeconds":I(),"timeoutSeconds":I()})
D["SleepAction"]=obj({"seconds":{"type":"integer"}},["seconds"])
D["LifecycleHandler"]=obj({"exec":O(),"httpGet":R("HTTPGetAction"),"sleep":R("SleepAction"),"tcpSocket":O()})
D["Lifecycle"]=obj({"postStart":R("LifecycleHandler"),"preStop":R("LifecycleHandler")})
D["Capabilities"]=obj({"add":A(S()),"drop":A(S())})
D["SeccompProfile"]=obj({"localhostProfile":S(),"type":{"type":"string","enum":["Localhost","RuntimeDefault","Unconfined"]}},["type"])
D["SecurityContext"]=obj({"allowPrivilegeEscalation":B(),"appArmorProfile":O(),"capabilities":R("Capabilities"),"privileged":B(),
  "procMount":S(),"readOnlyRootFilesystem":B(),"runAsGroup":I(),"runAsNonRoot":B(),"runAsUser":I(),"seLinuxOptions":O(),
  "seccompProfile":R("SeccompProfile"),"windowsOptions":O()})
D["PodSecurityContext"]=obj({"appArmorProfile":O(),"fsGroup":I(),"fsGroupChangePolicy":S(),"runAsGroup":I(),"runAsNonRoot":B(),
  "runAsUser":I(),"seLinuxOptions":O(),"seccompProfile":R("SeccompProfile"),"supplementalGroups":A(I()),"sysctls":A(O()),"windowsOptions":O()})
D["TopologySpreadConstraint"]=obj({"labelSelector":R("LabelSelector"),"matchLabelKeys":A(S()),"maxSkew":{"type":"integer","minimum":1},
  "minDomains":I(),"nodeAffinityPolicy":S(),"nodeTaintsPolicy":S(),"topologyKey":{"type":"string"},
  "whenUnsatisfiable":{"type":"string","enum":["DoNotSchedule","ScheduleAnyway"]}},["maxSkew","topologyKey","whenUnsatisfiable"])
D["VolumeMount"]=obj({"mountPath":S(),"mountPropagation":S(),"name":S(),"readOnly":B(),"recursiveReadOnly":S(),"subPath":S(),"subPathExpr":S()},["mountPath","name"])
D["KeyToPath"]=obj({"key":S(),"mode":I(),"path":S()},["key","path"])
D["ConfigMapVolumeSource"]=obj({"defaultMode":I(),"items":A(R("KeyToPath")),"name":S(),"optional":B()})
D["Volume"]=obj({"name":S(),"emptyDir":O(),"secret":O(),"configMap":R("ConfigMapVolumeSource"),"projected":O(),"persistentVolumeClaim":O(),"csi":O(),"ephemeral":O(),"downwardAPI":O(),"hostPath":O(),"nfs":O()},["name"])
D["PodTemplateSpec"]=obj({"metadata":R("ObjectMeta"),"spec":R("PodSpec")})
D["RollingUpdateDeployment"]=obj({"maxSurge":IOS(),"maxUnavailable":IOS()})
D["DeploymentStrategy"]=obj({"rollingUpdate":R("RollingUpdateDeployment"),"type":{"type":["string","null"],"enum":["Recreate","RollingUpdate",None]}})
D["DeploymentSpec"]=obj({"minReadySeconds":I(),"paused":B(),"progressDeadlineSeconds":I(),"replicas":I(),"revisionHistoryLimit":I(),
  "selector":R("LabelSelector"),"strategy":R("DeploymentStrategy"),"template":R("PodTemplateSpec")},["selector","template"])
D["ServicePort"]=obj({"appProtocol":S(),"name":S(),"nodePort":I(),"port":{"type":"integer","minimum":1,"maximum":65535},
  "protocol":{"type":["string","null"],"enum":["TCP","UDP","SCTP",None]},"targetPort":IOS()},["port"])
D["ServiceSpec"]=obj({"allocateLoadBalancerNodePorts":B(),"clusterIP":S(),"clusterIPs":A(S()),"externalIPs":A(S()),"externalName":S(),
  "externalTrafficPolicy":S(),"healthCheckNodePort":I(),"internalTrafficPolicy":S(),"ipFamilies":A(S()),"ipFamilyPolicy":S(),
  "loadBalancerClass":S(),"loadBalancerIP":S(),"loadBalancerSourceRanges":A(S()),"ports":A(R("ServicePort")),"publishNotReadyAddresses":B(),
  "selector":M(S()),"sessionAffinity":S(),"sessionAffinityConfig":O(),"trafficDistribution":S(),
  "type":{"type":["string","null"],"enum":["ClusterIP","ExternalName","LoadBalancer","NodePort",None]}})
D["PodDisruptionBudgetSpec"]=obj({"maxUnavailable":IOS(),"minAvailable":IOS(),"selector":R("LabelSelector"),"unhealthyPodEvictionPolicy":S()})
D["CrossVersionObjectReference"]=obj({"apiVersion":S(),"kind":{"type":"string"},"name":{"type":"string"}},["kind","name"])
D["MetricTarget"]=obj({"averageUtilization":I(),"averageValue":Q(),"type":{"type":"string","enum":["Utilization","Value","AverageValue"]},"value":Q()},["type"])
D["ResourceMetricSource"]=obj({"name":{"type":"string"},"target":R("MetricTarget")},["name","target"])
D["MetricSpec"]=obj({"containerResource":O(),"external":O(),"object":O(),"pods":O(),"resource":R("ResourceMetricSource"),
  "type":{"type":"string","enum":["ContainerResource","External","Object","Pods","Resource"]}},["type"])
D["HPAScalingPolicy"]=obj({"periodSeconds":{"type":"integer"},"type":{"type":"string","enum":["Pods","Percent"]},"value":{"type":"integer"}},["type","value","periodSeconds"])
D["HPAScalingRules"]=obj({"policies":A(R("HPAScalingPolicy")),"selectPolicy":S(),"stabilizationWindowSeconds":I()})
D["HorizontalPodAutoscalerBehavior"]=obj({"scaleDown":R("HPAScalingRules"),"scaleUp":R("HPAScalingRules")})
D["HorizontalPodAutoscalerSpec"]=obj({"behavior":R("HorizontalPodAutoscalerBehavior"),"maxReplicas":{"type":"integer"},"metrics":A(R("MetricSpec")),
  "minReplicas":I(),"scaleTargetRef":R("CrossVersionObjectReference")},["scaleTargetRef","maxReplicas"])
D["NetworkPolicyPort"]=obj({"endPort":I(),"port":IOS(),"protocol":{"type":["string","null"],"enum":["TCP","UDP","SCTP",None]}})
D["NetworkPolicyPeer"]=obj({"ipBlock":O(),"namespaceSelector":R("LabelSelector"),"podSelector":R("LabelSelector")})
D["NetworkPolicyIngressRule"]=obj({"from":A(R("NetworkPolicyPeer")),"ports":A(R("NetworkPolicyPort"))})
D["NetworkPolicyEgressRule"]=obj({"ports":A(R("NetworkPolicyPort")),"to":A(R("NetworkPolicyPeer"))})
D["NetworkPolicySpec"]=obj({"egress":A(R("NetworkPolicyEgressRule")),"ingress":A(R("NetworkPolicyIngressRule")),
  "podSelector":R("LabelSelector"),"policyTypes":A({"type":["string","null"],"enum":["Ingress","Egress",None]})})
D["NamespaceSpec"]=obj({"finalizers":A(S())})
# Kinds: top-level objects, keyed GROUP.VERSION.KIND (group "core" for v1).
D["apps.v1.Deployment"]=kind("apps/v1","Deployment",{"spec":R("DeploymentSpec"),"status":O()})
D["core.v1.Service"]=kind("v1","Service",{"spec":R("ServiceSpec"),"status":O()})
D["policy.v1.PodDisruptionBudget"]=kind("policy/v1","PodDisruptionBudget",{"spec":R("PodDisruptionBudgetSpec"),"status":O()})
D["autoscaling.v2.HorizontalPodAutoscaler"]=kind("autoscaling/v2","HorizontalPodAutoscaler",{"spec":R("HorizontalPodAutoscalerSpec"),"status":O()})
D["networking.k8s.io.v1.NetworkPolicy"]=kind("networking.k8s.io/v1","NetworkPolicy",{"spec":R("NetworkPolicySpec")})
D["core.v1.Namespace"]=kind("v1","Namespace",{"spec":R("NamespaceSpec"),"status":O()})
D["core.v1.Secret"]=kind("v1","Secret",{"data":M(S()),"immutable":B(),"stringData":M(S()),"type":S()})
# core/v1 ConfigMap (gpupick export search-job's service files), from the v1.30 API reference.
D["core.v1.ConfigMap"]=kind("v1","ConfigMap",{"binaryData":M(S()),"data":M(S()),"immutable":B()})
D["batch.v1.Job"]=kind("batch/v1","Job",{"spec":obj({"activeDeadlineSeconds":I(),"backoffLimit":I(),"backoffLimitPerIndex":I(),
  "completionMode":S(),"completions":I(),"manualSelector":B(),"maxFailedIndexes":I(),"parallelism":I(),"podFailurePolicy":O(),
  "podReplacementPolicy":S(),"selector":R("LabelSelector"),"suspend":B(),"template":R("PodTemplateSpec"),"ttlSecondsAfterFinished":I()},["template"]),"status":O()})
out={"$schema":"http://json-schema.org/draft-04/schema#",
 "description":"A subset of the Kubernetes v1.30 API as strict JSON Schema (draft-04, as yannh/kubernetes-json-schema's standalone-strict files), for the kinds deploy/kubernetes and gpupick export search-job use. See README.md beside it.",
 "definitions":dict(sorted(D.items()))}
json.dump(out, sys.stdout, indent=1, sort_keys=False)
sys.stdout.write("\n")
