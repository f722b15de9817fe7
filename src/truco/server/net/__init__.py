"""What stands between the network and the app: admission at the socket and of bodies, the
limits on what a client sends, security headers, the built web client's files, and the log
filter that keeps secrets out of every line."""
