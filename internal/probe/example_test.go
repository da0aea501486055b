package probe_test

import (
	"fmt"

	"github.com/gpupick/gpupick/internal/probe"
)

func ExampleParseNvidiaSMI() {
	out := []byte("0, NVIDIA H100 80GB HBM3, 81559, 550.54.15, 1980, 2619, 700.00, Enabled, [N/A]\n")
	gpus, err := probe.ParseNvidiaSMI(out)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s, %d MiB, driver %s, %.0f W, ECC %s, MIG %q\n", gpus[0].Name, gpus[0].MemoryMiB, gpus[0].Driver, gpus[0].PowerLimitW, gpus[0].ECC, gpus[0].MIG)
	// Output: NVIDIA H100 80GB HBM3, 81559 MiB, driver 550.54.15, 700 W, ECC enabled, MIG ""
}
