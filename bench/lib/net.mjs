import { createServer } from "node:net";

/** A TCP port on 127.0.0.1 that was free a moment ago (the kernel's pick, released at once). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}
