package importer

import (
	"bytes"
	"fmt"
	"testing"
	"time"
)

// skyPilotCSV makes n rows of a SkyPilot AWS vms.csv, every one a distinct
// accepted offer (instance types p5.<i>xlarge of family p5 in the catalog's
// regions).
func skyPilotCSV(n int) []byte {
	regions := []string{"us-east-1", "us-east-2", "us-west-2", "eu-west-1", "eu-central-1", "ap-northeast-1"}
	var b bytes.Buffer
	b.WriteString("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n")
	for i := range n {
		r := regions[i%len(regions)]
		fmt.Fprintf(&b, "p5.%dxlarge,H100,8.0,192.0,2048.0,\"{'Gpus': [{'Name': 'H100', 'Manufacturer': 'NVIDIA', 'Count': 8, 'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 655360}\",%.4f,%.4f,%s,%sa\n",
			i/len(regions), 90+float64(i%1000)/100, 20+float64(i%500)/100, r, r)
	}
	return b.Bytes()
}

// BenchmarkParseSkyPilot100k parses 100,000 rows into 100,000 offers and
// reports ns/row.
func BenchmarkParseSkyPilot100k(b *testing.B) {
	const rows = 100_000
	data := skyPilotCSV(rows)
	opt := fileOptions(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var start = time.Now()
	for b.Loop() {
		res, err := Parse("skypilot", bytes.NewReader(data), "aws/vms.csv", opt)
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Offers) != rows || len(res.Rejected) != 0 {
			b.Fatalf("%d offers, %d rejected", len(res.Offers), len(res.Rejected))
		}
	}
	b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(b.N)/rows, "ns/row")
}
