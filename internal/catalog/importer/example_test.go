package importer_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/gpupick/gpupick/data"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/catalog/importer"
)

// Parse a SkyPilot vms.csv a user keeps: rows come back in catalog terms,
// refused rows with their reason.
func ExampleParse() {
	files, _ := catalog.Parse(data.FS, true)
	cat, _ := catalog.Build(files)
	csv := `InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone
p5.48xlarge,H100,8.0,192.0,2048.0,,98.32,20.9934,us-east-1,use1-az3
g6f.large,L4,0.125,2.0,8.0,,0.29296,0.0733,us-east-1,use1-az1
x9imaginary.xlarge,Imaginary X1,1.0,4.0,16.0,,0.379,0.15,us-east-1,use1-az1
`
	// SkyPilot files carry no date: AsOf says when the prices were
	// published (here, the catalog commit's date).
	res, err := importer.Parse("skypilot", strings.NewReader(csv), "catalogs/v7/aws/vms.csv", importer.Options{
		Catalog: cat,
		AsOf:    time.Date(2025, 5, 20, 0, 0, 0, 0, time.UTC),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range res.Offers {
		od, _ := o.ListPrices.Get(catalog.OnDemand)
		sp, _ := o.ListPrices.Get(catalog.Spot)
		share := ""
		if o.Sliced() {
			share = fmt.Sprintf(" (%g of one)", o.GPUFraction)
		}
		fmt.Printf("%s %s x%d%s on-demand $%.2f/h spot $%.2f/h (%s, %s)\n", o.Key(), o.GPU, o.GPUCount, share, od, sp, o.Source, o.AsOf.Format(time.DateOnly))
	}
	for _, r := range res.Rejected {
		fmt.Println("refused:", r)
	}
	// Output:
	// aws/g6f.large@us-east-1 l4 x1 (0.125 of one) on-demand $0.29/h spot $0.07/h (catalogs/v7/aws/vms.csv, 2025-05-20)
	// aws/p5.48xlarge@us-east-1 h100-sxm x8 on-demand $98.32/h spot $20.99/h (catalogs/v7/aws/vms.csv, 2025-05-20)
	// refused: line 4: aws/x9imaginary.xlarge@us-east-1: AcceleratorName: unmapped GPU "Imaginary X1": no mapping to a gpupick accelerator id (add it to the importer's table or the catalog's aliases)
}
