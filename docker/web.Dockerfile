# nginx serving the built frontend and widget, proxying /api (and uploads, the test-mode
# checkout page) to the api service. Build from the repository root:
#   docker build -f docker/web.Dockerfile -t botsmith-web .
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY backend/package.json backend/
COPY frontend/package.json frontend/
COPY widget/package.json widget/
COPY e2e/package.json e2e/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY widget widget
COPY frontend frontend
ARG VITE_MIXPANEL_TOKEN=
RUN npm run build -w widget && npm run build -w frontend

FROM nginxinc/nginx-unprivileged:1.27-alpine AS runtime
COPY docker/nginx.conf /etc/nginx/conf.d/default.conf
COPY --from=build /app/frontend/dist /usr/share/nginx/html
COPY --from=build /app/widget/dist /usr/share/nginx/widget
EXPOSE 8080
