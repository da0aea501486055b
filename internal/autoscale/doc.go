// Package autoscale is gpupick's autoscaling and serverless simulator: a
// seeded, reproducible discrete-event simulation of a fleet of inference
// replicas under a traffic pattern or a replayed trace, driven by a scaling
// policy (a fixed fleet, HPA/KEDA target tracking, a Knative-like
// stable/panic autoscaler, a serverless platform, or a mixed fleet of an
// on-demand floor, spot burst capacity and a cheaper fallback tier).
//
// It reports cost, replica- and GPU-hours, utilisation, latency percentiles
// (queueing wait, time to first token, end to end), SLO violations, dropped
// and timed-out requests, and a time series; Search finds the cheapest policy
// and offer that meets an SLO.
//
// Time is simulated seconds (float64) from the start of the run; there is no
// wall clock. Randomness comes from seeded generators, so the same inputs give
// the same result. Memory does not grow with the number of requests:
// percentiles come from fixed-size log-bucketed sketches and the time series
// is coarsened as it grows. The package does no I/O beyond reading the
// io.Reader it is given for a trace.
package autoscale
