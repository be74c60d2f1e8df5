// Preloaded (node --require) by internal/mcpservers into the everything
// server's streamable HTTP mode, which is started with PORT=0: prints the port
// the OS gave it once it really listens. The server's own "listening on port"
// line is no proof: it prints it even when listening failed.
const net = require("node:net");

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  this.once("listening", () => {
    process.stderr.write(`mcpservers: listening on port ${this.address().port}\n`);
  });
  return listen.apply(this, args);
};
