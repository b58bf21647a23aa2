# nginx serving the built frontend and widget, proxying /api (and uploads, the test-mode
# checkout page) to the api service (every replica of it). Run PUBLIC_URL as the api's. Build from the repository root:
#   docker build -f docker/web.Dockerfile -t botsmith-web .
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
COPY widget widget
COPY frontend frontend
ARG VITE_MIXPANEL_TOKEN=
RUN npm run build -w widget && npm run build -w frontend

FROM nginxinc/nginx-unprivileged:1.27-alpine AS runtime
# docker/nginx.conf is a template: at start the image's entrypoint writes it to
# /etc/nginx/conf.d/default.conf with ${PUBLIC_URL} filled in (HSTS and the CSP depend on it),
# and only that variable (nginx's own $variables stay as they are).
ENV NGINX_ENVSUBST_FILTER=^PUBLIC_URL\$ \
    PUBLIC_URL=http://localhost:8080
COPY docker/nginx.conf /etc/nginx/templates/default.conf.template
COPY --from=build /app/frontend/dist /usr/share/nginx/html
COPY --from=build /app/widget/dist /usr/share/nginx/widget
EXPOSE 8080
