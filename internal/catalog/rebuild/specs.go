package rebuild

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"io/fs"
	"strconv"
	"strings"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/catalog"
	"github.com/gpupick/gpupick/internal/msg"
)

// spec is what an instance type has that price files do not say: local
// disks, network, the GPU interconnect and the fabric for clusters.
type spec struct {
	nvmeTB, nvmeRead, block, network float64
	interconnect                     string
	interconnectGBps                 float64
	fabric                           string
	fabricGbps                       float64
	confidential                     catalog.Tri
	driver, source, asOf, notes      string
}

var specColumns = []string{"provider", "instance_type", "nvme_tb", "nvme_read_gb_s", "block_gb_s", "network_gbps",
	"interconnect_kind", "interconnect_gb_s", "fabric_kind", "fabric_gbps", "confidential_computing", "driver",
	"source", "as_of", "notes"}

// readSpecs reads instance-specs.csv: one row per provider/instance type.
func readSpecs(fsys fs.FS) (map[string]spec, error) {
	data, err := fs.ReadFile(fsys, SpecsFile)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]spec{}, nil
	}
	if err != nil {
		return nil, &apperr.Error{Code: apperr.Invalid, File: SpecsFile, Msg: "cannot read", Err: err}
	}
	r := csv.NewReader(bytes.NewReader(data))
	header, err := r.Read()
	if err != nil {
		return nil, &apperr.Error{Code: apperr.Invalid, File: SpecsFile, Line: 1, Msg: "cannot read the header", Err: err}
	}
	if strings.Join(header, ",") != strings.Join(specColumns, ",") {
		return nil, &apperr.Error{Code: apperr.Invalid, File: SpecsFile, Line: 1, Msg: "want the columns " + strings.Join(specColumns, ",")}
	}
	out := map[string]spec{}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			// FieldPos is only defined for a record read without error.
			e := &apperr.Error{Code: apperr.Invalid, File: SpecsFile, Msg: "malformed CSV", Err: err}
			if pe := (*csv.ParseError)(nil); errors.As(err, &pe) {
				e.Line = pe.StartLine
			}
			return nil, e
		}
		line, _ := r.FieldPos(0)
		num := func(i int) (float64, error) {
			if rec[i] == "" {
				return 0, nil
			}
			v, err := strconv.ParseFloat(rec[i], 64)
			if err != nil || v <= 0 {
				return 0, &apperr.Error{Code: apperr.Invalid, File: SpecsFile, Line: line, Field: specColumns[i],
					Message: msg.New("want a number > 0 or an empty cell, got %q", rec[i])}
			}
			return v, nil
		}
		var s spec
		var vals [8]float64
		for k, i := range []int{2, 3, 4, 5, 7, 9} {
			if vals[k], err = num(i); err != nil {
				return nil, err
			}
		}
		s.nvmeTB, s.nvmeRead, s.block, s.network, s.interconnectGBps, s.fabricGbps = vals[0], vals[1], vals[2], vals[3], vals[4], vals[5]
		s.interconnect, s.fabric, s.driver = strings.ToLower(rec[6]), strings.ToLower(rec[8]), rec[11]
		tri, ok := catalog.ParseTri(rec[10])
		if !ok {
			return nil, &apperr.Error{Code: apperr.Invalid, File: SpecsFile, Line: line, Field: "confidential_computing", Msg: "want yes, no or empty"}
		}
		s.confidential, s.source, s.asOf, s.notes = tri, rec[12], rec[13], rec[14]
		if s.fabric != "" && s.fabricGbps == 0 {
			return nil, &apperr.Error{Code: apperr.Invalid, File: SpecsFile, Line: line, Field: "fabric_gbps", Msg: "required when fabric_kind is set"}
		}
		key := strings.ToLower(rec[0]) + "/" + rec[1]
		if _, dup := out[key]; dup {
			return nil, &apperr.Error{Code: apperr.Invalid, File: SpecsFile, Line: line, Field: "instance_type", Msg: key + " is listed twice"}
		}
		out[key] = s
	}
}

// apply fills the offer's unknown specs and names their source.
func (s spec) apply(o *catalog.Offer) {
	set := func(dst *float64, v float64) {
		if *dst == 0 {
			*dst = v
		}
	}
	set(&o.NVMeTB, s.nvmeTB)
	set(&o.NVMeReadGBps, s.nvmeRead)
	set(&o.BlockGBps, s.block)
	set(&o.NetworkGbps, s.network)
	set(&o.InterconnectGBps, s.interconnectGBps)
	set(&o.FabricGbps, s.fabricGbps)
	if o.InterconnectKind == "" {
		o.InterconnectKind = s.interconnect
	}
	if o.FabricKind == "" {
		o.FabricKind = s.fabric
	}
	if o.Confidential == catalog.Unknown {
		o.Confidential = s.confidential
	}
	if o.Driver == "" {
		o.Driver = s.driver
	}
	o.Source += "; specs (" + s.asOf + "): " + s.source
	if s.notes != "" {
		o.Notes = joinNotes(o.Notes, "specs: "+s.notes)
	}
}

func joinNotes(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
