package workload_test

import (
	"fmt"

	"github.com/gpupick/gpupick/internal/workload"
)

func ExampleParse() {
	file := []byte(`
kind: llm-finetune
model:
  preset: llama-3-8b
training:
  method: lora
  tokens: 2e9        # tokens to process in total
  seq_len: 4096
`)
	spec, err := workload.Parse(file, "job.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(spec.Name, spec.Kind, spec.Model.Preset, spec.Model.ParamsB, spec.Model.Layers)
	for _, d := range spec.Defaults[:3] {
		fmt.Printf("%s = %s (%s)\n", d.Field, d.Value, d.Why)
	}

	_, err = workload.Parse([]byte("kind: llm-finetune\nmodel: {preset: llama-3-8b}\ntraining:\n  tokens: 2e9\n  seq_len: -1\n"), "bad.yaml")
	fmt.Println(err)
	// Output:
	// job llm-finetune llama-3-8b 8.03 32
	// name = job (not set; taken from the file name)
	// training.precision = bf16 (not set; bf16 is the usual training precision)
	// training.global_batch = 64 (not set; a common fine-tuning batch)
	// bad.yaml:5: training.seq_len: must be >= 0, got -1
}
