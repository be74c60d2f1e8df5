package preview

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"
)

// maxProbeBody is how much of a dev server's page is read for its title.
const maxProbeBody = 256 << 10

// Probe fetches a dev server page the way the pane will, to tell the model
// its status and the first bytes of its body (for the title). Redirects
// are followed only while they stay on localhost/127.0.0.1, so a probe
// never leaves the machine.
func Probe(ctx context.Context, target string, timeout time.Duration) (status int, head []byte, err error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	client := &http.Client{
		Transport: &http.Transport{Proxy: nil, DialContext: (&net.Dialer{Timeout: timeout}).DialContext},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 5 || !Loopback(req.URL) {
				return http.ErrUseLastResponse
			}
			return nil
		},
	}
	defer client.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return 0, nil, err
	}
	res, err := client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return 0, nil, err
	}
	defer res.Body.Close()
	head, _ = io.ReadAll(io.LimitReader(res.Body, maxProbeBody))
	return res.StatusCode, head, nil
}

// Loopback reports whether u is http on localhost or 127.0.0.1 with a port.
func Loopback(u *url.URL) bool {
	host, port, err := net.SplitHostPort(u.Host)
	return err == nil && u.Scheme == "http" && port != "" && (host == "localhost" || host == "127.0.0.1")
}
