// Package deploy holds what runs gpupick serve in a cluster: the
// Kubernetes manifests under kubernetes/ (applied with kubectl apply -k) and,
// at the repository root, the Dockerfile that builds the image. Its tests
// validate the manifests against the Kubernetes API's schemas and the
// house rules (probes, security context, secrets, the flags and environment
// serve reads), and build the image where a container builder is at hand.
package deploy
