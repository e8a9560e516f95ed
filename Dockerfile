# skillsd in a container, alone (docker run) or as the replicas of a team server (deploy/kubernetes/, docs/deploy.md).
#
# Configured by environment variables only, so that `-e SKILLSD_PORT=8080` or a Kubernetes `env:` entry is honoured:
# the command is just `serve`, with no flag that would override a variable. Inside, it binds 0.0.0.0 (the port is
# published), so a bearer token is required: generated into /run/skillsd/token on first start (a volume, so it
# survives restarts), or mounted there 0600 (a Kubernetes Secret).
#
# Mount layout (docs/deploy.md §Mounts):
#   /home/node/.claude/skills, /home/node/.agents/skills   user-level skills
#   /workspace                                             the project: its .claude/skills, .agents/skills, AGENTS.md
#   /srv/skills                                            a git-synced skills repository (its `current` link),
#                                                          listed in the config file as a custom directory
#   /etc/skillsd                                           the config file (SKILLSD_CONFIG), e.g. a ConfigMap
# A skill directory that is a symbolic link to a path not mounted is reported in the `diagnostics` of GET /skills.
#
# The base image is pinned by digest (the multi-arch index of that tag); docs/deploy.md §Image says how to refresh it.

# Build: full dependencies and the TypeScript compiler.
FROM node:22.23.2-bookworm-slim@sha256:f32b81066cde10a75dbac96646099533316d94bac4150c55da1636e1f0ffdc46 AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# Production dependencies only, without install scripts.
FROM node:22.23.2-bookworm-slim@sha256:f32b81066cde10a75dbac96646099533316d94bac4150c55da1636e1f0ffdc46 AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force

# Runtime: no compiler, no dev dependencies, not root.
FROM node:22.23.2-bookworm-slim@sha256:f32b81066cde10a75dbac96646099533316d94bac4150c55da1636e1f0ffdc46
ENV NODE_ENV=production \
    HOME=/home/node \
    SKILLSD_HOST=0.0.0.0 \
    SKILLSD_PORT=7420 \
    SKILLSD_CWD=/workspace \
    SKILLSD_TOKEN_FILE=/run/skillsd/token
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The page at /ui is plain HTML, CSS and JavaScript read from the package as they are (docs/api.md "GET /ui").
COPY --from=build /app/src/server/ui ./src/server/ui
COPY package.json ./
# The token directory is 0700 and owned by the daemon's user; the mount points exist so that Docker creates named
# volumes with the right owner.
RUN mkdir -p /run/skillsd /workspace /srv/skills /etc/skillsd /home/node/.claude/skills /home/node/.agents/skills \
    && chown node:node /run/skillsd /workspace /srv/skills /home/node/.claude /home/node/.claude/skills \
       /home/node/.agents /home/node/.agents/skills \
    && chmod 0700 /run/skillsd
# The node image's unprivileged user (uid 1000), by number so that a runAsNonRoot policy can verify it.
USER 1000:1000
VOLUME ["/home/node/.claude/skills", "/home/node/.agents/skills", "/workspace", "/run/skillsd"]
EXPOSE 7420
# Readiness on the port the daemon was configured with; /health/ready answers without a token. Slim images have no
# curl, so node's fetch does the probe.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.SKILLSD_PORT || 7420}/health/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop, a pod's deletion) ends the streams and exits 0 within 5 s: node runs as PID 1 and handles it.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "/app/dist/cli.js"]
CMD ["serve"]
