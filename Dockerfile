# Selfie Mosaic: one image for every role (ROLE=all|api|worker). See README "Scaling out".

# ---- build: install everything, compile the TypeScript and the web app, then drop dev dependencies
FROM node:20-slim AS build
WORKDIR /app
# Toolchain only for native modules without a prebuilt binary for this platform (better-sqlite3 falls back to it).
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY packages/campaign/package.json packages/campaign/
COPY packages/mosaic/package.json packages/mosaic/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
# Only the manifests are here yet, so the root `prepare` script (which compiles the TypeScript) skips itself.
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# ---- runtime: compiled output and production dependencies only, as the unprivileged `node` user
FROM node:20-slim
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data \
    MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/packages/contract/package.json /app/packages/contract/
COPY --from=build --chown=node:node /app/packages/contract/dist /app/packages/contract/dist
COPY --from=build --chown=node:node /app/packages/campaign/package.json /app/packages/campaign/
COPY --from=build --chown=node:node /app/packages/campaign/dist /app/packages/campaign/dist
COPY --from=build --chown=node:node /app/packages/mosaic/package.json /app/packages/mosaic/
COPY --from=build --chown=node:node /app/packages/mosaic/dist /app/packages/mosaic/dist
COPY --from=build --chown=node:node /app/apps/server/package.json /app/apps/server/
COPY --from=build --chown=node:node /app/apps/server/dist /app/apps/server/dist
COPY --from=build --chown=node:node /app/apps/server/assets /app/apps/server/assets
COPY --from=build --chown=node:node /app/apps/web/dist /app/apps/web/dist
# The data folder (embedded mode) and the shared storage mount point belong to the runtime user.
RUN mkdir -p /data/files && chown -R node:node /data
USER node
EXPOSE 3000
VOLUME ["/data"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# V8's old generation starts at 64 MB (as in the render process, see render-pool.ts): with the default the
# HTTP process's 24 MB heap made a full garbage collection every few jobs, ≈ 10 ms of CPU a job.
CMD ["node", "--initial-old-space-size=64", "apps/server/dist/server.js"]
