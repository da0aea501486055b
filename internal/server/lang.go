package server

import (
	"errors"
	"slices"

	"github.com/gpupick/gpupick/internal/advisor"
	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/perf"
	"github.com/gpupick/gpupick/internal/report"
)

// This file holds the language of the API's sentences. A request that
// returns sentences for people (a verdict, a fix, a warning, an exclusion
// reason, an error message) takes "lang": en, the default, or zh. Codes,
// numbers and field names stay as they are in every language; only the
// sentences change, through the report package's renderers and report.Tr
// for the sentences the domain packages write.

// langRequest is a request body with a "lang" field.
type langRequest interface{ language() string }

func (r *PredictRequest) language() string    { return r.Lang }
func (r *RecommendRequest) language() string  { return r.Lang }
func (r *ExplainRequest) language() string    { return r.Lang }
func (r *CheckRequest) language() string      { return r.Lang }
func (r *CostRequest) language() string       { return r.Lang }
func (r *SimulationRequest) language() string { return r.Lang }
func (r *ValidateRequest) language() string   { return r.Lang }
func (r *ExportRequest) language() string     { return r.Lang }

// parseLang reads a request's lang: "" is English.
func parseLang(s string) (report.Lang, error) {
	l, err := report.ParseLang(s, "")
	if err != nil {
		return "", apperr.Invalidf("lang", "want en or zh, got %q", s)
	}
	return l, nil
}

// requestLang is the language of in's sentences, English when in takes
// no lang or its lang is bad (the bad lang is itself the error).
func requestLang(in any) report.Lang {
	lr, ok := in.(langRequest)
	if !ok {
		return report.English
	}
	l, err := parseLang(lr.language())
	if err != nil {
		return report.English
	}
	return l
}

// inLang marks an error to be written in a language.
type inLang struct {
	err  error
	lang report.Lang
}

func (e *inLang) Error() string { return e.err.Error() }
func (e *inLang) Unwrap() error { return e.err }

// localized returns err marked with l (nil stays nil; English needs no
// mark).
func localized(err error, l report.Lang) error {
	if err == nil || l == report.English || errors.Is(err, errWritten) {
		return err
	}
	return &inLang{err, l}
}

// translateBody puts an error body's sentences in the language err was
// marked with.
func translateBody(b ErrorBody, err error) ErrorBody {
	var il *inLang
	if !errors.As(err, &il) {
		return b
	}
	var ae *apperr.Error
	var al apperr.List
	var he *httpError
	if (errors.As(il.err, &ae) || errors.As(il.err, &al)) && !errors.As(il.err, &he) {
		return errorBodyIn(il.err, il.lang) // rendered from its messages
	}
	b.Message = report.Tr(il.lang, b.Message)
	if len(b.Errors) > 0 {
		b.Errors = slices.Clone(b.Errors)
		for i := range b.Errors {
			b.Errors[i].Message = report.Tr(il.lang, b.Errors[i].Message)
		}
	}
	return b
}

// localizePrediction puts a prediction's sentences in l.
func localizePrediction(p *perf.Prediction, l report.Lang) {
	if l == report.English {
		return
	}
	p.Reason = report.Localize(l, p.Reason)
	p.Verdict = report.Localize(l, p.Verdict)
	p.Fix = report.Localize(l, p.Fix)
	p.Confidence = report.Tr(l, p.Confidence)
	p.Assumptions = report.LocalizeAll(l, p.Assumptions)
}

// localizeCandidate puts the sentences of c, the view of src, in l: its
// warnings rendered from their codes, its plan.
func localizeCandidate(c *report.CandidateJSON, src *advisor.Candidate, l report.Lang) {
	if l == report.English {
		return
	}
	c.Warnings = slices.Clone(c.Warnings)
	for i := range c.Warnings {
		text := c.Warnings[i].Text
		if i < len(src.Warnings) && src.Warnings[i].Code == c.Warnings[i].Code {
			text = report.WarningText(l, src.Warnings[i])
		}
		c.Warnings[i].Text = report.Tr(l, text)
	}
	c.Plan.Sentence = report.PlanSentence(src.Plan, l)
}

// localizeRecommendation puts the sentences of d, the view of res, in l
// (its answer already is).
func localizeRecommendation(d *report.RecommendJSON, res *advisor.Result, l report.Lang) {
	if l == report.English {
		return
	}
	d.Summary = report.Localize(l, res.Summary())
	d.Notes = report.LocalizeAll(l, d.Notes)
	for i := range d.Candidates {
		localizeCandidate(&d.Candidates[i], res.Candidates[i], l)
	}
	for i := range d.Excluded {
		d.Excluded[i].Reason = report.Localize(l, d.Excluded[i].Reason)
	}
	if d.ConfidenceVsNext != nil {
		c := *d.ConfidenceVsNext
		c.Sentence = report.Localize(l, c.Sentence)
		d.ConfidenceVsNext = &c
	}
	d.PriceFreshness.Sentence = report.Tr(l, d.PriceFreshness.Sentence)
}

// localizeCheck puts a check's sentences in l.
func localizeCheck(v *report.CheckJSON, l report.Lang) {
	if l == report.English {
		return
	}
	v.Compat.Reasons = slices.Clone(v.Compat.Reasons)
	for i := range v.Compat.Reasons {
		r := &v.Compat.Reasons[i]
		r.Text, r.Fix = report.Localize(l, r.Text), report.Localize(l, r.Fix)
	}
	v.Compat.LockIn = report.Localize(l, v.Compat.LockIn)
	v.Compat.Checklist = report.LocalizeAll(l, v.Compat.Checklist)
	// The compliance reasons and the due-diligence list come rendered in
	// l (app.Check).
}

// localizeJob puts a simulation job's sentences in l: the search's policy
// summaries and the error. The stored result is left as it is.
func localizeJob(j *JobJSON, l report.Lang) {
	j.Result = report.SimulationIn(j.Result, l) // its advice, in every language
	if l == report.English {
		return
	}
	if j.Error != nil {
		e := translateBody(*j.Error, localized(errors.New(j.Error.Message), l))
		j.Error = &e
	}
	if s := j.Search; s != nil {
		c := *s
		tr := func(e autoscale.SearchEntry) autoscale.SearchEntry {
			e.Summary = report.Render(l, e.SummaryMsg())
			return e
		}
		if c.Best != nil {
			b := tr(*c.Best)
			c.Best = &b
		}
		c.RunnersUp = slices.Clone(c.RunnersUp)
		for i := range c.RunnersUp {
			c.RunnersUp[i] = tr(c.RunnersUp[i])
		}
		j.Search = &c
	}
}
