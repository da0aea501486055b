package importer

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/gpupick/gpupick/internal/catalog"
)

// fuzzParse parses data and checks that whatever comes out obeys the
// catalog's rules; it must never panic.
func fuzzParse(t *testing.T, format, name string, data []byte) {
	opt := fileOptions(t)
	res, err := Parse(format, bytes.NewReader(data), name, opt)
	if err != nil {
		return
	}
	for _, o := range res.Offers {
		// A region the catalog does not know is accepted with its country
		// unknown, and warned about; a known one carries its country.
		if reg, ok := opt.Catalog.Region(o.Provider, o.Region); ok && o.Country != reg.Country {
			t.Fatalf("%s: country %q, the catalog says %q", o.Key(), o.Country, reg.Country)
		} else if !ok && (o.Country != "" || !hasWarning(res, "region", fmt.Sprintf("region %q of %s", o.Region, o.Provider))) {
			t.Fatalf("%s: unknown region accepted with country %q or without a warning:%s", o.Key(), o.Country, warningList(res))
		}
		if _, ok := opt.Catalog.Accelerator(o.GPU); !ok || o.GPUCount < 1 || o.GPUCount > catalog.MaxOfferGPUs {
			t.Fatalf("%s: GPU %q x%d accepted", o.Key(), o.GPU, o.GPUCount)
		}
		if f := o.GPUFraction; f != 0 && (f < 0 || f >= 1 || f != f || o.GPUCount != 1) {
			t.Fatalf("%s: fraction %g of x%d", o.Key(), f, o.GPUCount)
		}
		if !o.AsOf.Equal(fixedAsOf) {
			t.Fatalf("%s: as of %v, want %v", o.Key(), o.AsOf, fixedAsOf)
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
		// A spot range holds its price; a basis needs a price.
		if lo, hi, ok := o.SpotRange(); ok && (lo > 1+1e-9 || hi < 1-1e-9) {
			t.Fatalf("%s: spot %g outside its range %g-%g", o.Key(), o.LocalPrices[catalog.Spot], o.SpotMin, o.SpotMax)
		}
		if o.SpotBasis != catalog.SpotBasisUnstated && o.LocalPrices[catalog.Spot] == 0 {
			t.Fatalf("%s: spot basis %v without a spot price", o.Key(), o.SpotBasis)
		}
	}
}

func FuzzVantage(f *testing.F) {
	f.Add([]byte("instance_type,region,accelerator_count,vcpu,memory_gib,linux_ondemand_usd_per_hour,linux_spot_avg_usd_per_hour,linux_spot_min_usd_per_hour,linux_spot_max_usd_per_hour,ri_yrTerm1Standard_noUpfront_effective_usd_per_hour,ri_yrTerm1Standard_allUpfront_effective_usd_per_hour\n" +
		"p5.48xlarge,us-east-1,8,192,2048,55.04,25,20,31,40.1,38.5\ng6f.large,us-east-1,0.125,2,8,0.29,0.07,,,,\np2.xlarge,us-east-1,1,4,61,0.9,0.3,,,,\n" +
		"g5.xlarge,us-east-1-bos-1,1,4,16,1.2,,,,,\np5.48xlarge,us-gov-west-1,8,192,2048,NaN,-1,5,1,x,\n"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParse(t, "vantage-csv", "aws.csv", data) })
}

func FuzzGCPMachines(f *testing.F) {
	f.Add([]byte("machine_type,region,gpu_type,gpu_count,vcpu,ram_gb,local_ssd_gb,on_demand_usd_per_hour,spot_usd_per_hour,cud_1y_usd_per_hour,cud_3y_usd_per_hour\n" +
		"a3-highgpu-8g,us-central1,h100-80gb,8,208,1872,6000,88.49,50.6,61.38,38.86\ng4-standard-6,us-central1,rtx6000,0.125,6,22,,0.9,0.4,,\nx,y,,,,,,1e999,,,\n"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParse(t, "gcp-machines-csv", "gcp.csv", data) })
}

func FuzzAzureRetailCSV(f *testing.F) {
	f.Add([]byte("scope,armRegionName,skuName,meterName,productName,type,retailPrice_usd,unitPrice_usd,savingsPlan_1y_retailPrice_usd,unitOfMeasure\n" +
		"eu-west,westeurope,Standard_ND96amsr_A100_v4 Spot,ND96amsr A100 v4 Spot,Virtual Machines NDamsr A100 v4 Series Linux,Consumption,10.65,10.65,,1 Hour\n" +
		"eu-west,westeurope,NC24ads A100 v4,NC24ads A100 v4,Virtual Machines NCadsA100v4 Series,Consumption,4.2,4.2,3.1,1 Hour\n" +
		"eu-west,westeurope,NC6,NC6,x,Consumption,-1,,NaN,1 Hour\n"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParse(t, "azure-retail-csv", "azure.csv", data) })
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
	f.Add([]byte("InstanceType,AcceleratorName,AcceleratorCount,Price,SpotPrice,Region,AvailabilityZone\n" +
		"g6f.large,L4,0.125,0.2,0.1,us-east-1,use1-az1\ng6f.xlarge,L4,0.4,0.4,0,us-east-1,use1-az1\n" +
		"f1.2xlarge,Virtex UltraScale (VU9P),1.0,1.65,0.34,us-east-1,use1-az1\n" +
		"a4-highgpu-8g,,,0.0,0.0,us-central1,us-central1-b\n,B200,8,90.216,34.2368,us-central1,us-central1-b\n" +
		",T4,2,0.7,0.33,europe-west4,europe-west4-a\n,tpu-v5p-8,1,16.8,0,us-east5,us-east5-a\n,tpu-v3-7,1,8,1,us-central1,us-central1-a\n" +
		"x,RTX4090,1,0.3,0.2,\"Denmark, DK, EU\",\n"))
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
