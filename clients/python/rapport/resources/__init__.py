"""The client's resources, one module per group of routes."""
