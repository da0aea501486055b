package workload

// The diffusion presets (kind image-generation). Parameter counts, latent
// shapes, patch sizes, widths and depths are from each model's published
// configuration; the forward work is derived from the architecture as
// Σ (parameters a token passes through × tokens) plus attention
// (2·blocks·tokens²·width multiply-accumulates), as the notes say. A
// figure marked "derived" is this project's arithmetic on a published
// config, not a published number.
//
// Per-token parameters of a DiT are fewer than its total: the adaLN
// modulation layers run once per image, not per token, and an MMDiT's
// text and image streams each have their own weights.
var diffusionPresets = []Preset{
	// Stable Diffusion 1.5: UNet 859.5M parameters, 339 GMAC per forward
	// at 512 px (64×64 latent) as BK-SDM (Kim et al. 2023, arXiv
	// 2305.15798, Table 1) counts it; VAE decoder about 1,240 GMAC at
	// 512 px in the same table (4,730 GMAC per megapixel). Attention
	// derived: transformer blocks at 64², 32², 16² (5 each) and 8² (1),
	// widths 320/640/1280/1280: 68 GMAC. CLIP ViT-L/14 text encoder 123M,
	// 77 tokens.
	{Name: "sd-1.5", Aliases: []string{"stable-diffusion-v1-5", "sd15", "stable-diffusion-1.5", "sd-1.4"},
		Source: "huggingface.co/runwayml/stable-diffusion-v1-5 unet/config.json (859.5M); arXiv 2305.15798 Table 1 (U-Net 339 GMACs, decoder ~1.24 TMACs at 512 px)",
		Model:  headDim(unet(0.86, 38, 512, 4096, 339, 68, 0.123, 77), 40),
		Image:  imageDefaults(512, 512, 1, 50, true)},
	// Stable Diffusion 2.1: UNet 865M at 768 px (96×96 latent), same
	// block layout as 1.5 with linear projections; OpenCLIP ViT-H text
	// tower 354M. Work derived from SD 1.5's: the non-attention 271 GMAC
	// at 4,096 tokens scaled to 9,216 (610) plus attention recomputed at
	// 9,216 tokens (310): 920 GMAC.
	{Name: "sd-2.1", Aliases: []string{"stable-diffusion-2-1", "sd21", "stable-diffusion-2.1"},
		Source: "huggingface.co/stabilityai/stable-diffusion-2-1 unet/config.json (865M, 768 px); work derived from SD 1.5 (arXiv 2305.15798)",
		Model:  headDim(unet(0.87, 38, 768, 9216, 920, 310, 0.354, 77), 64),
		Image:  imageDefaults(768, 768, 1, 50, true)},
	// SDXL base 1.0: UNet 2.567B (Podell et al. 2023, arXiv 2307.01952,
	// Table 1), latent 128×128 at 1024 px; transformer depth 2 at 64²
	// (640 wide, 10 blocks) and 10 at 32² (1280 wide, 60 blocks). Work
	// derived: ~2.3B parameters at 1,024 positions, ~0.13B at 4,096 and
	// ~0.012B at 16,384, plus 376 GMAC of attention: 3,400 GMAC per
	// forward. Text encoders CLIP-L 123M + OpenCLIP-bigG 694M; the VAE
	// decodes in fp32 (force_upcast in its config).
	{Name: "sdxl", Aliases: []string{"sdxl-base", "stable-diffusion-xl-base-1.0", "sdxl-1.0", "stable-diffusion-xl"},
		Source: "arXiv 2307.01952 Table 1 (UNet 2.6B, text encoders 817M); huggingface.co/stabilityai/stable-diffusion-xl-base-1.0 unet/config.json, vae/config.json (force_upcast); work derived",
		Model:  headDim(withVAE(unet(2.567, 87, 1024, 16384, 3400, 376, 0.817, 77), FP32), 64),
		Image:  imageDefaults(1024, 1024, 1, 30, true)},
	// SD3 Medium: MMDiT 2.03B, 24 joint blocks of width 1536, patch 2 over
	// a 16-channel latent (Esser et al. 2024, arXiv 2403.03206); CLIP-L,
	// CLIP-G and T5-XXL encoders (5.58B), 77+256 tokens. Per token 0.68B
	// parameters (one stream's attention and MLP per block); at 1024 px
	// 4,096 image + 333 text tokens: 3,010 GMAC of linear work and 1,446
	// of attention (derived).
	{Name: "sd3-medium", Aliases: []string{"stable-diffusion-3-medium", "sd3", "sd-3-medium", "sd3.5-medium"},
		Source: "arXiv 2403.03206; huggingface.co/stabilityai/stable-diffusion-3-medium-diffusers transformer/config.json (24 layers, 1536 wide, patch 2); work derived",
		Model:  headDim(dit(2.03, 24, 1536, 16, 4456, 1446, 5.58, 333), 64),
		Image:  imageDefaults(1024, 1024, 1, 28, true)},
	// SD3.5 Large: MMDiT 8.1B, 38 blocks of width 2432; 2.70B parameters
	// per token; 11,958 GMAC linear + 3,626 attention at 1024 px (derived).
	{Name: "sd3.5-large", Aliases: []string{"stable-diffusion-3.5-large", "sd35-large"},
		Source: "huggingface.co/stabilityai/stable-diffusion-3.5-large transformer/config.json (38 layers, 2432 wide, patch 2; 8.1B); work derived",
		Model:  headDim(dit(8.1, 38, 2432, 16, 15584, 3626, 5.58, 333), 64),
		Image:  imageDefaults(1024, 1024, 1, 28, true)},
	// FLUX.1 [dev]: 12B rectified-flow transformer, 19 double-stream and 38
	// single-stream blocks of width 3072, patch 2 over a 16-channel latent;
	// T5-XXL (4.76B, 512 tokens) and CLIP-L. Guidance-distilled: one
	// denoiser pass per step. 6.45B parameters per token; at 1024 px 4,096
	// image + 512 text tokens: 29,722 GMAC linear + 7,437 attention
	// (derived).
	{Name: "flux.1-dev", Aliases: []string{"flux-dev", "flux1-dev", "black-forest-labs/flux.1-dev"},
		Source: "huggingface.co/black-forest-labs/FLUX.1-dev transformer/config.json (19 double + 38 single blocks, 3072 wide) and model card (guidance distilled, 28 steps in diffusers' example); work derived",
		Model:  headDim(dit(11.9, 57, 3072, 16, 37159, 7437, 4.88, 512), 128),
		Image:  imageDefaults(1024, 1024, 1, 28, false)},
	// FLUX.1 [schnell]: the same network, timestep-distilled to 1-4 steps,
	// 256 T5 tokens: 28,070 GMAC linear + 6,633 attention (derived).
	{Name: "flux.1-schnell", Aliases: []string{"flux-schnell", "flux1-schnell", "black-forest-labs/flux.1-schnell"},
		Source: "huggingface.co/black-forest-labs/FLUX.1-schnell model card (1-4 steps, max_sequence_length 256); work derived",
		Model:  headDim(dit(11.9, 57, 3072, 16, 34703, 6633, 4.88, 256), 128),
		Image:  imageDefaults(1024, 1024, 1, 4, false)},
	// PixArt-Σ: DiT-XL/2, 0.61B, 28 blocks of width 1152 with
	// cross-attention to T5-XXL (300 tokens), SDXL's 4-channel VAE. 0.52B
	// parameters per token; at 1024 px 2,130 GMAC linear + 1,082 attention
	// (derived).
	{Name: "pixart-sigma", Aliases: []string{"pixart-σ", "pixart-sigma-xl-2-1024-ms"},
		Source: "Chen et al. 2024, arXiv 2403.04692; huggingface.co/PixArt-alpha/PixArt-Sigma-XL-2-1024-MS transformer/config.json; work derived",
		Model:  headDim(withLatent(dit(0.61, 28, 1152, 4, 3212, 1082, 4.76, 300), 4), 72),
		Image:  imageDefaults(1024, 1024, 1, 20, true)},
	// CogVideoX-5B: 42 expert-adaLN blocks of width 3072, patch 2, 3D VAE
	// with 8x spatial and 4x temporal compression; 49 frames at 720×480
	// are 13 × 30 × 45 = 17,550 tokens (+226 text). T5-XXL encoder.
	// 4.76B parameters per token: 84,614 GMAC linear + 81,540 attention
	// per forward (derived). The 3D VAE decoder is taken as three times
	// the 2D decoder per output pixel (3×3×3 kernels): an estimate.
	{Name: "cogvideox-5b", Aliases: []string{"cogvideox", "thudm/cogvideox-5b"},
		Source: "Yang et al. 2024, arXiv 2408.06072; huggingface.co/THUDM/CogVideoX-5b transformer/config.json (42 layers, 48 heads × 64, patch 2, 49 frames at 720×480); work derived",
		Model:  headDim(video(dit(5.6, 42, 3072, 16, 166154, 81540, 4.76, 226), 17550, 0.22), 64),
		Image:  imageDefaults(720, 480, 49, 50, true)},
	// HunyuanVideo: 13B, 20 dual-stream + 40 single-stream blocks of width
	// 3072, patch 1×2×2, 3D VAE (8x spatial, 4x temporal); 129 frames at
	// 1280×720 are 33 × 45 × 80 = 118,800 tokens (+256 text). Text
	// encoder a LLaVA-Llama-3-8B MLLM plus CLIP-L (8.1B). Guidance
	// embedded (distilled): one pass per step. 6.79B parameters per token:
	// 808,390 GMAC linear + 5,225,000 attention (derived).
	{Name: "hunyuanvideo", Aliases: []string{"hunyuan-video", "tencent/hunyuanvideo"},
		Source: "Kong et al. 2024, arXiv 2412.03603 (13B, dual/single-stream blocks, 3D VAE); github.com/Tencent/HunyuanVideo README (720p 129 frames, 50 steps, embedded guidance); work derived",
		Model:  headDim(video(dit(12.8, 60, 3072, 16, 6033390, 5225000, 8.1, 256), 118800, 0.25), 128),
		Image:  imageDefaults(1280, 720, 129, 50, false)},
}

// sdVAEGMACsPerMpx is the Stable Diffusion VAE decoder's work per output
// megapixel: ~1,240 GMAC at 512 px (arXiv 2305.15798 Table 1) over 0.262 Mpx.
const sdVAEGMACsPerMpx = 4730

// unet is a latent UNet; blocks counts its transformer and ResNet blocks
// (SD 1.x/2.x: 16 transformer and 22 ResNet blocks; SDXL: 70 transformer
// layers and 17 ResNet blocks, from the configs' transformer_layers_per_block
// and layers_per_block), kept in Layers: an eager framework's host cost
// is per block.
func unet(paramsB float64, blocks, px, refTokens int, gmacs, attnGMACs, textB float64, textTokens int) Model {
	return Model{Arch: ArchUNet, ParamsB: paramsB, Layers: blocks, ImagePx: px, LatentChannels: 4, LatentFactor: 8, PatchSize: 1,
		ReferenceTokens: refTokens, ForwardGMACsPerSample: gmacs, AttentionGMACsPerSample: attnGMACs,
		TextEncoderParamsB: textB, TextTokens: textTokens, VAEParamsB: 0.0838, VAEDecoderGMACsPerMpx: sdVAEGMACsPerMpx, VAEPrecision: FP16}
}

// dit is a DiT at 1024 px (4,096 image tokens after 8x VAE and patch 2).
func dit(paramsB float64, layers, hidden, channels int, gmacs, attnGMACs, textB float64, textTokens int) Model {
	return Model{Arch: ArchDiT, ParamsB: paramsB, Layers: layers, Hidden: hidden, ImagePx: 1024, LatentChannels: channels,
		LatentFactor: 8, PatchSize: 2, ReferenceTokens: 4096, ForwardGMACsPerSample: gmacs, AttentionGMACsPerSample: attnGMACs,
		TextEncoderParamsB: textB, TextTokens: textTokens, VAEParamsB: 0.0838, VAEDecoderGMACsPerMpx: sdVAEGMACsPerMpx, VAEPrecision: FP16}
}

// headDim sets the width of the attention heads that carry most of the
// denoiser's attention work: what a fused attention kernel pads to its
// tile. SD 1.x has 8 heads at every level (40, 80, 160 wide at 64², 32²,
// 16²) and its 64² level holds 88% of the self-attention work (5 blocks ×
// 4,096² tokens × 320 against 5 × 1,024² × 640 at 32²), so 40; SD 2.x,
// SDXL, SD3 and CogVideoX use 64-wide heads, FLUX and HunyuanVideo 128
// (24 × 128 = 3,072), PixArt-Σ 72 (16 × 72 = 1,152), from their configs.
func headDim(m Model, d int) Model {
	m.HeadDim = d
	return m
}

func withVAE(m Model, p Precision) Model {
	m.VAEPrecision = p
	return m
}

func withLatent(m Model, channels int) Model {
	m.LatentChannels = channels
	return m
}

// video makes m a video DiT with a 4x temporal VAE whose decoder costs
// three times the 2D one per output pixel.
func video(m Model, refTokens int, vaeB float64) Model {
	m.TemporalFactor, m.ReferenceTokens, m.ImagePx = 4, refTokens, 0
	m.VAEParamsB, m.VAEDecoderGMACsPerMpx = vaeB, 3*sdVAEGMACsPerMpx
	return m
}

func imageDefaults(w, h, frames, steps int, guidance bool) *Image {
	return &Image{Width: w, Height: h, Frames: frames, Steps: steps, Guidance: ptr(guidance)}
}

func init() {
	for i := range diffusionPresets {
		diffusionPresets[i].Model.Preset = diffusionPresets[i].Name
	}
	presets = append(presets, diffusionPresets...)
}

// LatentFrames is the number of latent frames a clip of frames frames
// becomes: 1 for an image model, 1+(frames-1)/TemporalFactor for a video VAE.
func (m Model) LatentFrames(frames int) int {
	if m.TemporalFactor <= 1 || frames <= 1 {
		return 1
	}
	return 1 + (frames-1)/m.TemporalFactor
}

// DenoiserTokens is the token count of one image (or clip) of width ×
// height pixels and frames frames in the denoiser: latent pixels after
// patching, times latent frames.
func (m Model) DenoiserTokens(width, height, frames int) float64 {
	f := max(m.LatentFactor, 1) * max(m.PatchSize, 1)
	return float64(width/f) * float64(height/f) * float64(m.LatentFrames(frames))
}
