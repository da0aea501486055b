package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestPredictGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"predict-lora.txt", []string{"predict", "-f", "../../examples/llama3-8b-lora.yaml", "--gpu", "h100-sxm", "--gpus", "8"}},
		{"predict-lora.json", []string{"predict", "-f", "../../examples/llama3-8b-lora.yaml", "--gpu", "h100-sxm", "--gpus", "8", "-o", "json"}},
		{"predict-chat-offer.txt", []string{"predict", "-f", "../../examples/llama3-70b-chat.yaml", "--offer", "aws/p5.48xlarge"}},
		{"predict-pretrain-nofit.txt", []string{"predict", "-f", "../../examples/llama3-70b-pretrain.yaml", "--gpu", "a10g", "--gpus", "1"}},
		{"predict-lora-zh.txt", []string{"predict", "-f", "../../examples/llama3-8b-lora.yaml", "--gpu", "h100-sxm", "--gpus", "8", "--lang", "zh"}},
		{"predict-chat-offer-zh.txt", []string{"predict", "-f", "../../examples/llama3-70b-chat.yaml", "--offer", "aws/p5.48xlarge", "--lang", "zh"}},
		{"predict-pretrain-nofit-zh.txt", []string{"predict", "-f", "../../examples/llama3-70b-pretrain.yaml", "--gpu", "a10g", "--gpus", "1", "--lang", "zh"}},
		{"predict-sdxl.txt", []string{"predict", "-f", "../../examples/sdxl-images.yaml", "--gpu", "h100-sxm"}},
		{"predict-sdxl-zh.txt", []string{"predict", "-f", "../../examples/sdxl-images.yaml", "--gpu", "h100-sxm", "--lang", "zh"}},
		{"predict-deepseek-2nodes.txt", []string{"predict", "-f", "../../examples/deepseek-v3-chat.yaml", "--offer", "aws/p5.48xlarge", "--gpus", "16", "--nodes", "2"}},
		{"predict-deepseek-2nodes-zh.txt", []string{"predict", "-f", "../../examples/deepseek-v3-chat.yaml", "--offer", "aws/p5.48xlarge", "--gpus", "16", "--nodes", "2", "--lang", "zh"}},
		{"predict-resnet.json", []string{"predict", "-f", "../../examples/resnet50-imagenet.yaml", "--offer", "aws/p5.48xlarge", "-o", "json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden(t, tt.name, out)
		})
	}
}

// TestPredictJSONContract checks the fields DESIGN.md promises other tools.
func TestPredictJSONContract(t *testing.T) {
	out, errOut, code := run(t, "predict", "-f", "../../examples/llama3-70b-chat.yaml", "--gpu", "h100-sxm", "--gpus", "8", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"gpu", "gpus", "nodes", "fits", "memory_per_gpu_gb", "parallelism", "throughput", "mfu",
		"step_time_s", "duration_hours", "utilization", "bottleneck", "ttft_ms", "tpot_ms"} {
		if _, ok := m[k]; !ok {
			t.Errorf("predict -o json lacks %q", k)
		}
	}
	pl := m["parallelism"].(map[string]any)
	for _, k := range []string{"data", "tensor", "pipeline", "sharded_optimizer"} {
		if _, ok := pl[k]; !ok {
			t.Errorf("parallelism lacks %q", k)
		}
	}
	th := m["throughput"].(map[string]any)
	if th["unit"] != "tokens/s" {
		t.Errorf("inference throughput unit %v, want tokens/s", th["unit"])
	}
	if m["ttft_ms"] == nil || m["tpot_ms"] == nil {
		t.Error("inference predictions always fill ttft_ms and tpot_ms")
	}
	allowed := map[string]bool{"compute": true, "memory-bandwidth": true, "interconnect": true, "network": true, "storage": true, "cpu": true, "memory-capacity": true}
	if !allowed[m["bottleneck"].(string)] {
		t.Errorf("bottleneck %v is not one of the documented values", m["bottleneck"])
	}
}

func TestPredictErrors(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		contains string
	}{
		{"no file", []string{"predict", "--gpu", "h100-sxm"}, 2, "-f: a workload file is required"},
		{"missing file", []string{"predict", "-f", "testdata/nope.yaml", "--gpu", "h100-sxm"}, 2, "-f: cannot read"},
		{"bad key", []string{"predict", "-f", "testdata/bad-workload.yaml", "--gpu", "h100-sxm"}, 2, "testdata/bad-workload.yaml:4: training.seq_lenn: unknown key"},
		{"no gpu", []string{"predict", "-f", "../../examples/llama3-8b-lora.yaml"}, 2, "--gpu: give --gpu ID or --offer"},
		{"unknown offer", []string{"predict", "-f", "../../examples/llama3-8b-lora.yaml", "--offer", "aws/p9.huge"}, 2, `--offer: no offer "aws/p9.huge"`},
		{"offer gpu mismatch", []string{"predict", "-f", "../../examples/llama3-8b-lora.yaml", "--offer", "aws/g5.xlarge", "--gpu", "h100-sxm"}, 2, "aws/g5.xlarge has a10g, not h100-sxm"},
		{"uneven nodes", []string{"predict", "-f", "../../examples/llama3-8b-lora.yaml", "--gpu", "h100-sxm", "--gpus", "9", "--nodes", "2"}, 2, "--nodes: 9 GPUs do not spread evenly"},
		{"no fabric", []string{"predict", "-f", "../../examples/llama3-8b-lora.yaml", "--offer", "aws/g5.xlarge", "--gpus", "2", "--nodes", "2"}, 2, "no inter-node fabric in the catalog"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.contains) {
				t.Errorf("exit %d (want %d), stderr %q, want it to contain %q", code, tt.code, errOut, tt.contains)
			}
			if out != "" {
				t.Errorf("stdout must stay empty on error: %q", out)
			}
		})
	}
}

// TestPredictShortDurations: a burst that takes seconds is shown in
// seconds, never as "0.00 hours" (issue 16).
func TestPredictShortDurations(t *testing.T) {
	out, errOut, code := run(t, "predict", "-f", "../../examples/sharegpt-burst.yaml", "--gpu", "h100-sxm", "--gpus", "8")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var line string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "duration") {
			line = l
		}
	}
	if f := strings.Fields(line); len(f) != 4 || f[3] != "s" || f[1] == "0.00" {
		t.Errorf("duration of a burst: %q", line)
	}
}
