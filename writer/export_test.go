package writer

// WithFault returns w with a fault hook: fault is called at each step of a
// write with the step's name, and an error it returns stops the write there.
func WithFault(w *Writer, fault func(step string) error) *Writer {
	w.fault = fault
	return w
}
