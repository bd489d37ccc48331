// Moved to src/net so the worker (built from src) can use it; scripts and tests import it here.
export { freePort, isPortOpen } from '../../src/net/free-port';
