# skillsd in a container. Inside, it binds 0.0.0.0 (the port is published by Docker), so a bearer token is required:
# it is generated into /run/skillsd/token on first start (a volume, so it survives restarts), or mounted there 0600.
# Mount the skill directories to serve: ~/.claude/skills (user level) and the project at /workspace.

# Build: full dependencies and the TypeScript compiler.
FROM node:22.18.0-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# Production dependencies only, without install scripts.
FROM node:22.18.0-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force

# Runtime: no compiler, no dev dependencies, not root.
FROM node:22.18.0-bookworm-slim
ENV NODE_ENV=production \
    HOME=/home/node
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# The token directory is 0700 and owned by the daemon's user; the skill mount points exist so that Docker creates
# named volumes with the right owner.
RUN mkdir -p /run/skillsd /workspace /home/node/.claude/skills \
    && chown node:node /run/skillsd /workspace /home/node/.claude /home/node/.claude/skills \
    && chmod 0700 /run/skillsd
USER node
VOLUME ["/home/node/.claude/skills", "/workspace", "/run/skillsd"]
EXPOSE 7420
# /health answers without a token; slim images have no curl, so node's fetch does the probe.
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:7420/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "/app/dist/cli.js"]
CMD ["serve", "--host", "0.0.0.0", "--port", "7420", "--cwd", "/workspace", "--token-file", "/run/skillsd/token"]
