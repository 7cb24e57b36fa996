// A service that dies with the first request it reads, before answering (as a pod killed after its charge would):
// the upstream-failure test runs it as a process of its own. Prints {"port":N} once it listens.
import { createServer } from 'node:http';

const server = createServer(() => process.exit(1));
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
