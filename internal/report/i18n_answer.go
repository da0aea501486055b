package report

import (
	"github.com/gpupick/gpupick/internal/advisor"
)

// answerMessages holds the phrases of the answer block and of the
// reports that open with it, in English and Chinese. They are kept apart
// from messages (i18n.go) so each has one owner; locales/zh.po, msgctxt
// "answer:KEY".
var answerMessages = keyed("answer")

// am returns the answer phrase key in l, formatted with args.
func am(l Lang, key string, args ...any) string { return phrase(answerMessages, l, key, args...) }

// reasonMaxGPUsZh is the Chinese phrase of advisor.ReasonMaxGPUs; it joins
// the other reasons' phrases (i18n.go) at start-up.
const reasonMaxGPUsZh = "单台实例的 GPU 数超过 constraints.max_gpus"

func init() {
	if _, ok := reasonZh[advisor.ReasonMaxGPUs]; !ok {
		reasonZh[advisor.ReasonMaxGPUs] = reasonMaxGPUsZh
	}
}

// throughputUnitZh names the throughput units in Chinese.
var throughputUnitZh = map[string]string{"tokens/s": "token/秒", "images/s": "张图片/秒", "items/s": "个条目/秒"}

func throughputUnit(l Lang, u string) string {
	if l == Chinese {
		if z, ok := throughputUnitZh[u]; ok {
			return z
		}
		return Tr(l, u)
	}
	return u
}
