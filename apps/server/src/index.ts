export { buildApp } from './app.js';
export { type Config, ConfigError, loadConfig } from './config.js';
export { type StartedServer, startServer } from './start.js';
