package report

import (
	"errors"

	"github.com/gpupick/gpupick/internal/apperr"
	message "github.com/gpupick/gpupick/internal/msg"
)

// ErrorText is err in l: an apperr.Error's sentence rendered from its
// message value (a fixed text looked up whole), its file, line and field
// as they are, and its cause in turn. Other errors are looked up whole.
func ErrorText(l Lang, err error) string {
	var al apperr.List
	if errors.As(err, &al) && len(al) == 1 {
		return ErrorText(l, al[0])
	}
	ae, ok := err.(*apperr.Error)
	if !ok || l == English {
		return Tr(l, err.Error())
	}
	c := *ae
	c.Msg, c.Message, c.Err = ErrorMsg(l, ae), message.Msg{}, nil
	s := c.Error()
	if ae.Err != nil {
		if c.Text() != "" {
			s += ": "
		}
		s += ErrorText(l, ae.Err)
	}
	return s
}

// ErrorMsg is e's own sentence in l, without its place or its cause.
func ErrorMsg(l Lang, e *apperr.Error) string {
	if !e.Message.IsZero() {
		return Render(l, e.Message)
	}
	return Tr(l, e.Msg)
}
