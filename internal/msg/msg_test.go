package msg_test

import (
	"encoding/json"
	"testing"

	"github.com/gpupick/gpupick/internal/msg"
)

type zh map[string]string

func (c zh) Lookup(s string) (string, bool) { t, ok := c[s]; return t, ok }

func TestRender(t *testing.T) {
	cat := zh{
		"%s holds %s; scope: %s.":  "%s 持有 %s；范围：%s。",
		"%s (%s)":                  "%s（%s）",
		"the offer %[1]s in %[2]s": "%[2]s 的 %[1]s",
		"residency":                "数据驻留",
	}
	inner := msg.New("%s (%s)", "EU Cloud GmbH", "DE")
	m := msg.New("%s holds %s; scope: %s.", inner, "ISO27001", msg.Term("residency"))
	if got, want := m.String(), "EU Cloud GmbH (DE) holds ISO27001; scope: residency."; got != want {
		t.Errorf("English %q, want %q", got, want)
	}
	if got, want := m.Render(cat), "EU Cloud GmbH（DE） 持有 ISO27001；范围：数据驻留。"; got != want {
		t.Errorf("Chinese %q, want %q", got, want)
	}
	if got, want := msg.New("the offer %[1]s in %[2]s", "p5", "us-east-1").Render(cat), "us-east-1 的 p5"; got != want {
		t.Errorf("reordered %q, want %q", got, want)
	}
	// The translation's verbs stand for the English's texts: a number keeps
	// the English precision whatever the translated verb says, and # keeps
	// the English of a term.
	cat["copying %.0f GB at %.1f Gbit/s"] = "以 %[2]s Gbit/s 拷贝 %[1]d GB"
	if got, want := msg.New("copying %.0f GB at %.1f Gbit/s", 2.0, 3.25).Render(cat), "以 3.2 Gbit/s 拷贝 2 GB"; got != want {
		t.Errorf("precision %q, want %q", got, want)
	}
	cat["requirement %s"] = "要求 %s（%#[1]s）"
	if got, want := msg.New("requirement %s", msg.Term("residency")).Render(cat), "要求 数据驻留（residency）"; got != want {
		t.Errorf("# flag %q, want %q", got, want)
	}
	// A message without arguments is still a format: %% is a percent sign.
	if got := msg.New("99%% of requests").String(); got != "99% of requests" {
		t.Errorf("percent %q", got)
	}
	// A key the catalog lacks stays English; an empty message is empty.
	if got := msg.New("no such %s", "key").Render(cat); got != "no such key" {
		t.Errorf("fallback %q", got)
	}
	if (msg.Msg{}).Render(cat) != "" || !(msg.Msg{}).IsZero() {
		t.Error("the zero message must render empty")
	}
	var back struct {
		Why msg.Msg `json:"why"`
	}
	if err := json.Unmarshal([]byte(`{"why":"50% done"}`), &back); err != nil || back.Why.String() != "50% done" {
		t.Errorf("read back %q, %v", back.Why.String(), err)
	}
	b, _ := json.Marshal(struct {
		Why msg.Msg `json:"why"`
	}{m})
	if string(b) != `{"why":"EU Cloud GmbH (DE) holds ISO27001; scope: residency."}` {
		t.Errorf("JSON %s: a message is its English sentence", b)
	}
}

func TestCheckTranslation(t *testing.T) {
	for _, c := range []struct {
		en, zh string
		ok     bool
	}{
		{"%s has %d GPUs", "%s 有 %d 块 GPU", true},
		{"%s has %d GPUs", "%[2]d 块 GPU 属于 %[1]s", true},
		{"%s has %d GPUs", "%s 有 GPU", false},          // an argument left out
		{"%s has %d GPUs", "%s 有 %d 块 %s", false},      // an argument the English has not
		{"%s has %d GPUs", "%[3]s", false},             // out of range
		{"50%% off", "五折", true},                       // no arguments on either side
		{"%s is %.0f%% busy", "%s 忙碌 %.0f%%", true},    // percent signs are not verbs
		{"%s is %.0f%% busy", "%s 忙碌 %.0f%", false},    // a lone percent sign is
		{"%s then %s", "%[2]s，然后 %[1]s，再 %[2]s", true}, // said twice
	} {
		if err := msg.CheckTranslation(c.en, c.zh); (err == nil) != c.ok {
			t.Errorf("msg.CheckTranslation(%q, %q) = %v, want ok %v", c.en, c.zh, err, c.ok)
		}
	}
}
