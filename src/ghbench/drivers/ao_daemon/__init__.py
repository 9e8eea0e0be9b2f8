"""AO's Go daemon (0.10, 0.12): ``ao daemon`` traced at the network behind the GitHub
front; what differs between its release lines is a row of ``versions``."""
