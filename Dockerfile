# Bhagya in one container: the built server, its client bundles, and the embedded database under /data.
# Build:  docker build -t bhagya .
# Run:    docker run -p 3000:3000 -v bhagya-data:/data -e SECRET_KEY=... -e ADMIN_PHONE=01XXXXXXXXX -e ADMIN_PASSWORD=... \
#           -e NOTIFY_TRANSPORT=live -e SMTP_URL=smtps://user:pass@mail.example:465 -e SMS_GATEWAY_URL=https://... \
#           -e BKASH_RECEIVER_NUMBER=01XXXXXXXXX -e BKASH_MODE=live -e BKASH_APP_KEY=... -e BKASH_APP_SECRET=... \
#           -e BKASH_USERNAME=... -e BKASH_PASSWORD=... -e PUBLIC_ORIGIN=https://bhagya.example bhagya
#         (production refuses to start without SECRET_KEY, BKASH_RECEIVER_NUMBER or bKash's credentials, with the log
#         transport or the bKash simulator, naming the variable;
#         add DATABASE_URL=postgres://... to use a PostgreSQL server instead of the embedded PGlite)

FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json ./
COPY server ./server
COPY shared ./shared
COPY client ./client
COPY views ./views
COPY locales ./locales
COPY public ./public
COPY scripts ./scripts
# The server is one bundle with its libraries (PGlite's WebAssembly beside it); what it leaves to node_modules (sharp's
# native libvips) is gathered with its dependencies into runtime/node_modules. Source maps of the server are not
# shipped: nothing in the image reads them. Nor is the bKash simulator, a development tool that production refuses
# (dist/dev/).
RUN npm run build \
 && node scripts/runtime-modules.ts runtime \
 && rm -f dist/server/*.map \
 && rm -rf dist/dev

FROM node:24-slim AS runtime
# Production for the libraries (React's production build) and for the app: Secure cookies, HSTS, SECRET_KEY required.
ENV NODE_ENV=production \
    APP_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
# package.json says the bundle is an ES module; of node_modules only what the bundle leaves out (no npm run here).
COPY package.json ./
COPY --from=build /app/runtime/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY locales ./locales
COPY public ./public
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/server/index.js"]
