# syntax=docker/dockerfile:1
#
# One image recipe for the four Node servers: the gateway and the three services. Build from the
# repository root (the build context), naming the workspace and the port it listens on:
#   docker build --build-arg WORKSPACE=gateway             --build-arg PORT=8080 -t fieldhouse/gateway .
#   docker build --build-arg WORKSPACE=services/collection --build-arg PORT=8081 -t fieldhouse/collection .
#   docker build --build-arg WORKSPACE=services/polls      --build-arg PORT=8082 -t fieldhouse/polls .
#   docker build --build-arg WORKSPACE=services/events     --build-arg PORT=8083 -t fieldhouse/events .
# Runs `node dist/main.js` in /app/<workspace>. The same image runs the migrations
# (`node dist/migrate.js`), the services' workers (`node dist/workers/main.js`) and the
# gateway's operator CLI (`node dist/cli/user-create.js`).

ARG NODE_IMAGE=node:24-slim

# --- manifests: every workspace's package.json + the lockfile, at their own paths -----------
# `npm ci` checks the lockfile against every workspace listed in the root package.json, so all
# of them must be present. Collecting them here (instead of one COPY per file) keeps the
# Dockerfile valid when a workspace is added, and the install layers below stay cached until a
# manifest or the lockfile changes (COPY --from is keyed on file contents).
FROM ${NODE_IMAGE} AS manifests
WORKDIR /manifests
RUN --mount=type=bind,target=/ctx \
    cd /ctx \
    && find . -name package.json -not -path '*/node_modules/*' -exec cp --parents {} /manifests/ \; \
    && cp package-lock.json .npmrc /manifests/

# --- build: all dependencies (dev included: typescript, @types/*), then compile -------------
FROM ${NODE_IMAGE} AS build
ARG WORKSPACE
RUN test -n "${WORKSPACE}" \
    || { echo 'set --build-arg WORKSPACE=gateway or services/<name>' >&2; exit 1; }
WORKDIR /app
COPY --from=manifests /manifests ./
# --ignore-scripts: no install script is needed to build. It also keeps the `node` devDependency
# (a Node binary downloader meant for developer machines) from running or shadowing the image's
# node.
RUN --mount=type=cache,target=/root/.npm \
    npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.base.json ./
COPY libs ./libs
COPY ${WORKSPACE} ./${WORKSPACE}
# The gateway also serves the web console (docs/console.md): Vite builds it into console/dist.
COPY console ./console
RUN if [ "${WORKSPACE}" = gateway ]; then cd console && node ../node_modules/vite/bin/vite.js build; fi
# tsc -b follows the project references: builds the libs the workspace uses, then the workspace.
# Run tsc with the image's node directly (not through npx/.bin).
RUN node node_modules/typescript/bin/tsc -b "${WORKSPACE}"
# Gather what runs: every dist/ that was just built, without declaration files and build info.
RUN mkdir /out \
    && for d in libs/* "${WORKSPACE}"; do \
         if [ -d "$d/dist" ]; then mkdir -p "/out/$d" && cp -R "$d/dist" "/out/$d/"; fi; \
       done \
    && if [ "${WORKSPACE}" = gateway ]; then mkdir -p /out/console && cp -R console/dist /out/console/; fi \
    && find /out \( -name '*.tsbuildinfo' -o -name '*.d.ts' -o -name '*.d.ts.map' \) -delete

# --- prod-deps: production dependencies of the workspace and the libs it links, nothing else --
# `--workspace <workspace>` installs only its dependency closure (no testkit/testcontainers, no
# other service's drivers, no devDependencies, so not the `node` package either). Only bcrypt
# (the gateway's) needs its install script: `node-gyp-build`, which finds bcrypt 6's prebuilt
# addon for this platform (glibc and musl; x64, arm64, arm) and exits. `npm rebuild bcrypt` runs
# just that script; on a platform without a prebuild it would try to compile and fail here, at
# build time, as would the load check after it, rather than at the first login.
FROM ${NODE_IMAGE} AS prod-deps
ARG WORKSPACE
WORKDIR /app
COPY --from=manifests /manifests ./
RUN --mount=type=cache,target=/root/.npm \
    npm ci --omit=dev --ignore-scripts --no-audit --no-fund --workspace "${WORKSPACE}" \
    && if [ -d node_modules/bcrypt ]; then \
         npm rebuild bcrypt && node -e "require('bcrypt').hashSync('check', 4)"; \
       fi

# --- runtime ------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ARG WORKSPACE
ARG PORT=8080
# HOST: a container's API must listen on its interfaces (the processes default to loopback).
# METRICS_HOST stays loopback unless the deployment opens it (compose and deploy/ set 0.0.0.0,
# next to the NetworkPolicy that admits only Prometheus); METRICS_PORT defaults per process.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=${PORT}
WORKDIR /app
# node_modules (its @fieldhouse/* entries are symlinks to ../../libs/<name>), the root and
# workspace package.json files (exports maps, "type": "module"), then the compiled code.
# Everything stays owned by root: the `node` user can read but not modify the application.
COPY --from=prod-deps /app ./
COPY --from=build /out ./
# Where the collection service and its worker can keep photos and export files with the local
# store (BLOB_STORE=local, BLOB_DIR=/data/blobs) when a volume is mounted there: owned by `node`,
# so a new named volume starts out writable by it. docker-compose.yml and deploy/ use object
# storage instead (BLOB_STORE=s3; docs/collection.md, "Object storage").
RUN mkdir -p /data/blobs && chown node:node /data/blobs
WORKDIR /app/${WORKSPACE}
USER node
EXPOSE ${PORT}
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz',{signal:AbortSignal.timeout(2500)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/main.js"]
