package server

import (
	"net/http"
	"strings"

	"github.com/gpupick/gpupick/internal/server/web"
)

// apiRoutes is the API, in the order the OpenAPI document lists it.
func (s *Server) apiRoutes() []*route {
	wl, rp := s.workloadDocs(), s.reportDocs()
	const v1 = "/api/v1"
	return []*route{
		op("GET", v1+"/accelerators", "catalog", "List accelerators (as gpupick gpus -o json)", s.accelerators).
			query(acceleratorParams...),
		op("GET", v1+"/offers", "catalog", "List offers, filtered and paged (items as gpupick offers -o json)", s.offers).
			query(offerParams...),
		op("GET", v1+"/providers", "catalog", "List providers (as gpupick providers -o json)", s.providers),
		op("POST", v1+"/validate", "evaluate", "Validate a workload: the defaults filled in, or every problem with field and line", s.validate),
		op("POST", v1+"/predict", "evaluate", "Predict speed, memory and the bottleneck (as gpupick predict -o json)", s.predict),
		op("POST", v1+"/recommend", "evaluate", "Rank offers for a workload (as gpupick recommend -o json); ?format=svg for the Pareto chart, ?format=html for the report", s.recommend).
			query(param{"format", "string", "json (default), svg or html"},
				param{"exclusions", "string", "examples (default: excluded holds three offers per reason, excluded_by_reason counts them all, excluded_omitted says how many are left out) or all (every excluded offer)"}).produces("image/svg+xml", "text/html"),
		op("POST", v1+"/explain", "evaluate", "Tell the full story of one candidate offer (gpupick recommend --explain)", s.explain),
		op("POST", v1+"/check", "evaluate", "Judge stack compatibility and compliance (as gpupick check -o json)", s.check),
		op("POST", v1+"/cost", "evaluate", "Break down the total cost on one offer (as gpupick cost -o json)", s.costOf),
		op("POST", v1+"/export/{kind}", "evaluate", "Generate k8s, keda, karpenter, skypilot or all manifests", s.exportFiles),
		op("POST", v1+"/simulations", "simulate", "Start a simulation job (gpupick simulate); poll it by id", s.submitSimulation).withStatus(http.StatusAccepted),
		op("GET", v1+"/simulations/{id}", "simulate", "A simulation's status, progress and, when done, result", s.getSimulation).
			query(param{"lang", "string", "en or zh: the language of the sentences (default: the one the job was asked in)"}),
		op("DELETE", v1+"/simulations/{id}", "simulate", "Cancel a simulation", s.cancelSimulation),
		op("GET", v1+"/catalog/snapshots", "history", "List catalog snapshots in the store (as gpupick catalog snapshots -o json)", s.snapshots),
		op("GET", v1+"/catalog/history", "history", "An offer's price over time (as gpupick catalog history -o json)", s.history).
			query(param{"offer", "string", "provider/instance[@region] (required)"}, param{"region", "string", "only this region"},
				param{"mode", "string", "pricing mode (default on-demand)"}, param{"from", "string", "first day, YYYY-MM-DD"}, param{"to", "string", "last day, YYYY-MM-DD"}),
		op("GET", v1+"/catalog/diff", "history", "What changed between two snapshots (as gpupick catalog diff -o json)", s.diff).
			query(param{"from", "string", "snapshot number or date (default: the one before to)"}, param{"to", "string", "snapshot number or date (default: the latest)"}),
		op("POST", v1+"/catalog/import", "history", "Import a price list into the store as a snapshot (needs a token); the served catalog reloads", s.importPrices).withAuth().withStatus(http.StatusCreated),
		op("PUT", v1+"/prices", "catalog", "Set the team's negotiated prices, a --prices overlay, for every request (needs a token; kept in the store, so every replica serves them)", s.setPrices).withAuth(),
		op("DELETE", v1+"/prices", "catalog", "Remove the negotiated prices (needs a token)", s.clearPrices).withAuth(),
		op("POST", v1+"/workloads", "saved", "Save a workload (needs a token)", wl.create).withAuth().withStatus(http.StatusCreated),
		op("GET", v1+"/workloads", "saved", "List saved workloads, newest first", wl.listAll),
		op("GET", v1+"/workloads/{id}", "saved", "A saved workload with its body", wl.getOne),
		op("DELETE", v1+"/workloads/{id}", "saved", "Delete a saved workload (needs a token)", wl.deleteOne).withAuth(),
		op("POST", v1+"/reports", "saved", "Save a report (needs a token)", rp.create).withAuth().withStatus(http.StatusCreated),
		op("GET", v1+"/reports", "saved", "List saved reports, newest first", rp.listAll),
		op("GET", v1+"/reports/{id}", "saved", "A saved report with its body", rp.getOne),
		op("DELETE", v1+"/reports/{id}", "saved", "Delete a saved report (needs a token)", rp.deleteOne).withAuth(),
	}
}

// webPage serves the embedded page. It also gets every request no endpoint
// matched: a known path asked with another method is 405 with the methods
// it takes, an unknown API path 404 in JSON.
func (s *Server) webPage() http.Handler {
	files := web.Handler() // a missing file is the page's 404.html
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if allow := s.allowedMethods(r); len(allow) > 0 {
			s.methodNotAllowed(w, r, allow)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/api/") {
			s.writeError(w, r, errNoRoute(r))
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			if pageHas(r.URL.Path) {
				s.methodNotAllowed(w, r, []string{http.MethodGet, http.MethodHead})
			} else {
				s.writeError(w, r, errNoRoute(r))
			}
			return
		}
		files.ServeHTTP(w, r)
	})
}

// The query parameters of the catalog's lists, shared with the MCP tools
// that call them.
var (
	acceleratorParams = []param{{"vendor", "string", "only this vendor"}, {"min_memory_gb", "number", "at least this memory per accelerator, GiB"}}
	offerParams       = []param{{"gpu", "string", "accelerator ID[:COUNT per instance]"}, {"min_gpus", "integer", "at least N GPUs per instance"},
		{"provider", "string", "provider ids, comma-separated"}, {"region", "string", "region as the provider names it"},
		{"country", "string", "ISO 3166 alpha-2"}, {"pricing", "string", "pricing mode to show and require"},
		{"max_price", "number", "at most this USD per instance-hour (price_usd_per_hour)"},
		{"max_price_per_gpu", "number", "at most this USD per GPU-hour (price_usd_per_gpu_hour)"},
		{"sort", "string", "price (price_usd_per_hour), price-per-gpu (price_usd_per_gpu_hour) or memory; unknown prices last"},
		{"page", "integer", "1-based page (default 1)"}, {"per_page", "integer", "1 to 500 (default 50)"}}
)
