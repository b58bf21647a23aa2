# The API (NestJS). Also runs the scheduler; the monthly billing job takes a PostgreSQL
# advisory lock, so any number of replicas is safe. Build from the repository root:
#   docker build -f docker/api.Dockerfile -t botsmith-api .
# Node.js 24 LTS (Node 20 is past its end of life; the code supports 20.19+ and 24, and CI tests both).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY contract/package.json contract/
COPY backend/package.json backend/
COPY frontend/package.json frontend/
COPY widget/package.json widget/
COPY e2e/package.json e2e/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY contract contract
COPY backend backend
# The backend's build compiles the contract first (contract/dist, which it imports at run time),
# and ends with the bundle the image runs. Source maps are never read at run time (no
# --enable-source-maps): the bundle's alone are 14 MB.
RUN npm run build -w backend && find backend/dist -name '*.map' -delete

# Only the backend's production dependencies: the root's and the other workspaces' packages (the
# dashboard's React and MUI, the test tools) stay out. Type declarations and source maps are never
# read at run time. npm also installs optional peers recorded in the lock file that nothing of
# ours loads: TypeScript (for @nestjs/swagger's build plugin), zod (openai's zod helpers) and the
# babel packages of dedent's macro support; they are removed. README.md (Docker) has the sizes.
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY contract/package.json contract/
COPY backend/package.json backend/
COPY frontend/package.json frontend/
COPY widget/package.json widget/
COPY e2e/package.json e2e/
RUN npm ci --workspace backend --omit=dev --omit=peer --no-audit --no-fund \
 && rm -rf node_modules/typescript node_modules/zod node_modules/@babel node_modules/babel-plugin-macros \
 && mkdir -p backend/node_modules \
 && find node_modules backend/node_modules -type f \
      \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' \) -delete

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=deps --chown=node:node /app/node_modules node_modules
COPY --from=build --chown=node:node /app/package.json package.json
COPY --from=build --chown=node:node /app/backend/package.json backend/package.json
# node_modules/@botsmith/contract links to contract/: its package.json and built JavaScript.
COPY --from=build --chown=node:node /app/contract/package.json contract/package.json
COPY --from=build --chown=node:node /app/contract/dist contract/dist
# npm keeps a workspace's own copy of a package whose version differs from the root's (unpdf,
# file-type) in backend/node_modules: without it PDF uploads fail in the image.
COPY --from=deps --chown=node:node /app/backend/node_modules backend/node_modules
COPY --from=build --chown=node:node /app/backend/dist backend/dist
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s CMD node -e "fetch('http://127.0.0.1:3000/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The bundle (backend/scripts/bundle.mjs) starts faster; its workers and externals come from backend/dist and node_modules.
CMD ["node", "backend/dist/bundle/main.mjs"]
