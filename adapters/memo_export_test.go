package adapters

// ForgetValidated empties the memo of validated documents, so a benchmark
// iteration pays for validation as a fresh process does.
func ForgetValidated() {
	validObjects.mu.Lock()
	defer validObjects.mu.Unlock()
	validObjects.keys = [len(validObjects.keys)]docKey{}
}
