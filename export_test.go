package hookinstall

// ModuleVersion is moduleVersion, for the external tests.
var ModuleVersion = moduleVersion
