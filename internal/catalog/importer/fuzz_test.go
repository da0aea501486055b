package importer

import (
	"bytes"
	"testing"

	"github.com/gpupick/gpupick/internal/catalog"
)

// fuzzParse parses data and checks that whatever comes out obeys the
// catalog's rules; it must never panic.
func fuzzParse(t *testing.T, format, name string, data []byte) {
	opt := testOptions(t)
	res, err := Parse(format, bytes.NewReader(data), name, opt)
	if err != nil {
		return
	}
	for _, o := range res.Offers {
		if _, ok := opt.Catalog.Region(o.Provider, o.Region); !ok {
			t.Fatalf("%s: unknown region accepted", o.Key())
		}
		if _, ok := opt.Catalog.Accelerator(o.GPU); !ok || o.GPUCount < 1 {
			t.Fatalf("%s: GPU %q x%d accepted", o.Key(), o.GPU, o.GPUCount)
		}
		any := false
		for m := catalog.Mode(0); m < catalog.NumModes; m++ {
			if p := o.ListPrices[m]; p < 0 || p != p {
				t.Fatalf("%s: %s price %g", o.Key(), m, p)
			}
			any = any || o.ListPrices[m] > 0
		}
		if !any {
			t.Fatalf("%s: no price", o.Key())
		}
		if od, ok := o.ListPrices.Get(catalog.OnDemand); ok {
			if sp, ok := o.ListPrices.Get(catalog.Spot); ok && sp >= od {
				t.Fatalf("%s: spot %g >= on-demand %g", o.Key(), sp, od)
			}
		}
	}
}

func addSeeds(f *testing.F, files ...string) {
	for _, n := range files {
		f.Add(readFile(f, n))
	}
}

func FuzzAzure(f *testing.F) {
	addSeeds(f, "testdata/azure-page1.json", "testdata/azure-page2.json", "testdata/azure-changed-field.json")
	f.Add([]byte(`{"Items":[{"armSkuName":"Standard_NC6s_v3","retailPrice":-1,"armRegionName":"eastus","type":"Reservation"}]}{"Items":null}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParse(t, "azure", "azure.json", data) })
}

func FuzzAWS(f *testing.F) {
	addSeeds(f, "testdata/aws-offer.json", "testdata/aws-changed-field.json")
	f.Add([]byte(`{"terms":{"OnDemand":{"S":{"S.T":{"priceDimensions":{"r":{"unit":"Hrs","pricePerUnit":{"USD":"NaN"}}}}}}},"products":{"S":{"productFamily":"Compute Instance","attributes":{"instanceType":"p5.48xlarge","regionCode":"us-east-1","gpu":"8"}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParse(t, "aws", "index.json", data) })
}

func FuzzGCP(f *testing.F) {
	addSeeds(f, "testdata/gcp-skus-page1.json", "testdata/gcp-skus-page2.json")
	f.Add([]byte(`{"skus":[{"description":"Nvidia L4 GPU","category":{"resourceFamily":"Compute","resourceGroup":"GPU","usageType":"OnDemand"},"serviceRegions":["us-east4"],"pricingInfo":[{"pricingExpression":{"usageUnit":"h","tieredRates":[{"unitPrice":{"units":"9223372036854775807","nanos":-5}}]}}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParse(t, "gcp", "skus.json", data) })
}

func FuzzSkyPilot(f *testing.F) {
	addSeeds(f, "testdata/skypilot/aws/vms.csv", "testdata/skypilot/gcp/vms.csv", "testdata/skypilot/lambda/vms.csv")
	f.Add([]byte("InstanceType,AcceleratorName,AcceleratorCount,Price,SpotPrice,Region\np5.48xlarge,H100,1e300,NaN,-1,us-east-1\n,A100,8,1,1,us-central1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzParse(t, "skypilot", "aws/vms.csv", data)
		fuzzParse(t, "skypilot", "gcp/vms.csv", data)
	})
}

func FuzzGpuhunt(f *testing.F) {
	addSeeds(f, "testdata/gpuhunt/lambdalabs.csv")
	f.Add([]byte("instance_name,location,price,gpu_count,gpu_name,gpu_memory,spot\nx,us-east-1,Inf,1,A100,-40,True\n"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParse(t, "gpuhunt", "lambdalabs.csv", data) })
}
