package agent

import "github.com/pi-desktop/pi-desktop/backend/provider"

// pricing is what a model response cost at the price in effect when it
// was made, and the saved provider and model that made it. It is written
// with the message and never recomputed: a later price edit does not
// rewrite history. cost nil is unknown (stored as NULL), never zero.
type pricing struct {
	cost      *provider.Cost
	profileID string
	model     string
}

// price prices usage at the run's model price (fixed when the turn began).
func (r *run) price(u provider.Usage) pricing {
	p := pricing{profileID: r.model.ProfileID, model: r.model.Model}
	if r.model.Price != nil {
		c := r.model.Price.Cost(u)
		p.cost = &c
	}
	return p
}

// column is the cost as stored: pico-dollars, or NULL.
func (p pricing) column() any {
	if p.cost == nil {
		return nil
	}
	return int64(*p.cost)
}

func (p pricing) usd() *float64 {
	if p.cost == nil {
		return nil
	}
	v := p.cost.USD()
	return &v
}
