package workload

import "math"

// FieldRange is the largest value a numeric workload field accepts and why.
// The bounds sit one or more orders of magnitude past the largest published
// job of each kind, so a real workload never meets them, while a typo
// (1e300 tokens, a deadline of a million years) is refused with the field's
// name instead of turning into an astronomic or infinite prediction.
type FieldRange struct {
	Max float64 // the largest accepted value
	Why string  // the unit and the reasoning, shown in the error
}

// FieldRanges lists, by field path, the upper bound of every numeric field;
// every numeric field must also be finite and >= 0. docs/workload.md shows
// this table, and a test keeps the two equal.
var FieldRanges = map[string]FieldRange{
	"model.params_b":                   {1e5, "100 trillion parameters, ~60x the largest published model"},
	"model.layers":                     {1e4, "layers"},
	"model.dense_layers":               {1e4, "layers"},
	"model.hidden":                     {1e6, "hidden width"},
	"model.ffn_hidden":                 {1e7, "MLP width"},
	"model.dense_ffn_hidden":           {1e7, "MLP width"},
	"model.heads":                      {1e5, "attention heads"},
	"model.kv_heads":                   {1e5, "attention heads"},
	"model.head_dim":                   {1e5, "per-head width"},
	"model.rope_head_dim":              {1e5, "per-head width"},
	"model.kv_lora_rank":               {1e6, "latent width"},
	"model.q_lora_rank":                {1e6, "latent width"},
	"model.vocab":                      {1e7, "tokens in the vocabulary"},
	"model.context_len":                {1e8, "tokens, 100x the longest published context"},
	"model.experts":                    {1e5, "experts per MoE layer"},
	"model.active_experts":             {1e5, "experts per token"},
	"model.shared_experts":             {1e5, "experts per MoE layer"},
	"model.expert_groups":              {1e5, "groups of experts"},
	"model.routed_groups":              {1e5, "groups of experts"},
	"model.image_px":                   {1e5, "pixels per side"},
	"model.forward_gmacs_per_sample":   {1e9, "GMACs per image (1e18 multiply-accumulates)"},
	"model.forward_activations_m":      {1e9, "million activations per image"},
	"training.tokens":                  {1e16, "tokens, ~300x the largest published pre-training run"},
	"training.samples":                 {1e14, "images, all epochs"},
	"training.epochs":                  {1e4, "passes over the data"},
	"training.seq_len":                 {1e8, "tokens per sequence"},
	"training.global_batch":            {1e9, "sequences or images per optimizer step"},
	"training.lora_rank":               {1e5, "adapter rank"},
	"inference.prompt_tokens":          {1e8, "tokens per request"},
	"inference.output_tokens":          {1e8, "tokens per request"},
	"inference.max_batch":              {1e6, "requests in flight per replica"},
	"inference.offload_gb":             {1e5, "GB of weights per GPU in host memory"},
	"inference.requests":               {1e13, "requests in an offline job or burst"},
	"inference.requests_per_second":    {1e7, "requests/s, about 100x the busiest public chat service"},
	"inference.slo.ttft_ms":            {8.64e7, "ms (one day)"},
	"inference.slo.tpot_ms":            {8.64e7, "ms (one day)"},
	"inference.slo.percentile":         {100, "percent"},
	"generic.items":                    {1e18, "items to process"},
	"generic.flops_per_item":           {1e21, "FLOPs per item"},
	"generic.bytes_per_item":           {1e15, "bytes per item"},
	"generic.memory_gb":                {1e7, "GB of accelerator memory"},
	"generic.measured.items_per_s":     {1e15, "items/s on one accelerator"},
	"parallelism.data":                 {1e6, "replicas"},
	"parallelism.tensor":               {1e6, "ways"},
	"parallelism.pipeline":             {1e6, "stages"},
	"parallelism.virtual_pipeline":     {1e6, "chunks per stage"},
	"parallelism.prefill_gpus":         {1e6, "GPUs"},
	"parallelism.expert":               {1e6, "ways"},
	"parallelism.context":              {1e6, "ways"},
	"parallelism.micro_batch":          {1e6, "sequences per micro-batch"},
	"data.dataset_gb":                  {1e8, "GB (100 PB)"},
	"data.outputs_gb":                  {1e8, "GB (100 PB)"},
	"data.storage_gb_s":                {1e6, "GB/s"},
	"data.bytes_per_sample":            {1e12, "bytes per sample"},
	"data.cpu_ms_per_sample":           {8.64e7, "ms (one day) per sample"},
	"constraints.deadline_hours":       {1e5, "hours (about 11 years)"},
	"constraints.budget_usd":           {1e12, "USD"},
	"constraints.engineer_day_usd":     {1e5, "USD a day"},
	"constraints.max_gpus":             {1e7, "accelerators"},
	"model.latent_channels":            {1e4, "latent channels"},
	"model.latent_factor":              {1e3, "pixels per latent pixel, per side"},
	"model.temporal_factor":            {1e3, "frames per latent frame"},
	"model.patch_size":                 {1e3, "latent pixels per token, per side"},
	"model.reference_tokens":           {1e9, "denoiser tokens"},
	"model.attention_gmacs_per_sample": {1e12, "GMACs per image or clip"},
	"model.text_encoder_params_b":      {1e5, "billions of parameters"},
	"model.text_tokens":                {1e7, "prompt tokens"},
	"model.vae_params_b":               {1e5, "billions of parameters"},
	"model.vae_decoder_gmacs_per_mpx":  {1e9, "GMACs per output megapixel"},
	"image.width":                      {1e6, "pixels"},
	"image.height":                     {1e6, "pixels"},
	"image.frames":                     {1e6, "frames per clip"},
	"image.steps":                      {1e5, "denoising steps"},
	"image.batch":                      {1e5, "images per pipeline call"},
	"image.images":                     {1e13, "images or clips in an offline job"},
	"image.requests_per_second":        {1e7, "requests/s"},
	"image.slo.latency_s":              {8.64e4, "seconds (one day)"},
	"image.slo.percentile":             {100, "percent"},
	"service.peak_hour":                {23, "hour of the day"},
}

// inRange reports a value above field's documented bound. It does nothing
// for a field without a bound (nonNeg has already refused NaN, infinities
// and negatives).
func (p *checker) inRange(field string, v float64) {
	r, ok := FieldRanges[field]
	if ok && !math.IsNaN(v) && v > r.Max {
		p.errorf(field, "must be at most %s (%s), got %s", fmtFloat(r.Max), r.Why, fmtFloat(v))
	}
}
