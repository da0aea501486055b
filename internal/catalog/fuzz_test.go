package catalog

import (
	"testing"
	"testing/fstest"
)

func FuzzParseOffers(f *testing.F) {
	f.Add(offerHeader + "aws,g5.xlarge,us-east-1,a10g,1,24,4,16,,,,,,,,,1,,,,,USD,,,,,src,2025-01-01,\n")
	f.Add("provider,region\n\"a,b\n")
	f.Add(offerHeader + "aws,x,y,z,-1,nan,1e999,,,,,,,,,,0,,,,,,,,maybe,,,2025-13-01,\n")
	f.Fuzz(func(t *testing.T, s string) {
		files, err := Parse(fstest.MapFS{"offers/aws.csv": {Data: []byte(s)}}, false)
		if err == nil {
			_, _ = Build(files) // must not panic whatever the rows say
		}
	})
}

func FuzzParseAccelerators(f *testing.F) {
	f.Add("id,name,vendor,architecture,memory_gib,memory_bandwidth_gb_s,source,as_of\nx,X,nvidia,hopper,80,3350,s,2025-01-01\n")
	f.Fuzz(func(t *testing.T, s string) {
		files, err := Parse(fstest.MapFS{"accelerators.csv": {Data: []byte(s)}}, false)
		if err == nil {
			_, _ = Build(files)
		}
	})
}

func FuzzParseProviders(f *testing.F) {
	f.Add("- id: aws\n  name: A\n  hq_country: US\n  source: s\n  as_of: 2025-01-01\n  egress_tiers_usd_per_gb: [{up_to_tb: 1, usd_per_gb: 1}, {usd_per_gb: 0.5}]\n")
	f.Add("- id: x\n  name: X\n  hq_country: US\n  source: s\n  as_of: 2025-01-01\n  operator: {kind: Marketplace, source: t, as_of: 2025-01-02}\n" +
		"  operator_rules: [{instance_types: '*_[', kind: community, source: u, as_of: x}]\n  mlps: [{level: 0, covers: product, regions: [a], scope: s, source: '', as_of: 2025-01-01}]\n")
	f.Add("- id: x\n  name: X\n  hq_country: US\n  source: s\n  as_of: 2025-01-01\n  legal_entity: {name: X Inc., country: us, source: s, as_of: 2025-01-01}\n" +
		"  datacenters: {model: owned, source: s, as_of: 2025-01-01}\n  documents: [{kind: dpa, url: 'https://x', access: nda, source: s, as_of: 2025-01-01}, {kind: dpa, url: x}]\n" +
		"  certifications: [{name: ISO42001, compute: 'no', source: s, as_of: 2025-01-01}]\n")
	f.Fuzz(func(t *testing.T, s string) {
		files, err := Parse(fstest.MapFS{"providers.yaml": {Data: []byte(s)}}, false)
		if err == nil {
			_, _ = Build(files)
		}
	})
}

func FuzzParseOverlay(f *testing.F) {
	f.Add("rules:\n  - {provider: aws, instance: \"p5.*\", discount_percent: 25}\n")
	f.Add("rules:\n  - {mode: spot, price_per_hour: 3, currency: CNY}\n")
	f.Fuzz(func(t *testing.T, s string) {
		ov, err := ParseOverlay([]byte(s))
		if err == nil && len(ov.Rules) == 0 {
			t.Fatal("an overlay without rules was accepted")
		}
	})
}

func FuzzParseGPURequest(f *testing.F) {
	for _, s := range []string{"h100-sxm:8", "H100", ":", "a:b:c", "x:99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseGPURequest(s)
		if err == nil && (r.Name == "" || r.Count < 0) {
			t.Fatalf("ParseGPURequest(%q) = %+v without error", s, r)
		}
	})
}

func FuzzParseSpotRisks(f *testing.F) {
	f.Add("provider,instance_type,gpu,region,frequency,interruptions_per_hour,source,as_of,notes\naws,p5.48xlarge,,us-east-1,5-10%,,src,2025-06-28,\ngcp,,a100-40gb,,,0.099,src,2021-12-17,\n")
	f.Add("provider,frequency,interruptions_per_hour,source,as_of\naws,>20%,0.5,s,2025-01-01\naws,nope,,s,x\n,,-1,,\n")
	f.Fuzz(func(t *testing.T, s string) {
		files, err := Parse(fstest.MapFS{SpotRiskFile: {Data: []byte(s)}}, false)
		if err != nil {
			return
		}
		for _, r := range files.SpotRisks {
			if (r.Bucket >= 0) == (r.PerHour > 0) || r.Bucket >= len(SpotBuckets) || r.PerHour < 0 || r.PerHour > 10 {
				t.Fatalf("accepted %+v", r)
			}
		}
	})
}

func FuzzParseSupplyChain(f *testing.F) {
	f.Add("vendors:\n  - {id: nvidia, name: N, designer_country: US, fab: TSMC, source: s, as_of: 2025-01-01}\nexport_controls:\n  - {accelerators: [h20], market: CN, status: licence_required, since: 2025-04-15, text: t, source: s, as_of: 2025-04-15}\n")
	f.Add("vendors: [{id: '', designer_country: U}]\nexport_controls: [{market: C, status: x, since: y}]\n")
	f.Fuzz(func(t *testing.T, s string) {
		files, err := Parse(fstest.MapFS{SupplyChainFile: {Data: []byte(s)}}, false)
		if err == nil {
			c, _ := Build(files)
			if c != nil {
				for _, x := range c.ExportControls {
					if len(x.Accelerators) == 0 || x.Since.IsZero() {
						t.Fatalf("accepted an export control without parts or date: %+v", x)
					}
				}
			}
		}
	})
}
