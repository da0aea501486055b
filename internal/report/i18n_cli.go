package report

import "github.com/gpupick/gpupick/internal/autoscale"

// cliMessages holds the fixed phrases of every command other than
// recommend (gpus, offers, providers, predict, simulate, cost, check), in
// English and Chinese. Data strings from the domain packages go through Tr
// instead. locales/zh.po, msgctxt "cli:KEY".
var cliMessages = keyed("cli")

// tc renders the CLI phrase key in l, formatted with args.
func tc(l Lang, key string, args ...any) string { return phrase(cliMessages, l, key, args...) }

// CLIText is a fixed phrase of the commands (a note on stderr, a message)
// in l, for the cli package.
func CLIText(l Lang, key string, args ...any) string { return tc(l, key, args...) }

// SimulationIn is r as its JSON answer gives it in l: a copy whose
// advice carries its sentence (r is not changed: a job's result is shared
// by the polls in every language).
func SimulationIn(r *autoscale.Result, l Lang) *autoscale.Result {
	if r == nil || r.Advice == nil {
		return r
	}
	c, a := *r, *r.Advice
	a.Sentence = AdviceText(l, r)
	c.Advice = &a
	return &c
}

// AdviceText is a run's advice as a sentence in l ("" for none), in the
// words of its policy where they differ.
func AdviceText(l Lang, r *autoscale.Result) string {
	a := r.Advice
	if a == nil {
		return ""
	}
	args := make([]any, len(a.Args))
	for i, v := range a.Args {
		args[i] = v
	}
	key := "sim.advice." + a.Code
	if _, ok := cliMessages[key+"."+r.Policy]; ok {
		key += "." + r.Policy
	}
	return tc(l, key, args...)
}
