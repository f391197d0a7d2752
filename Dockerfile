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
RUN npm run build

FROM node:24-slim AS runtime
# Production for the libraries (React's production build) and for the app: Secure cookies, HSTS, SECRET_KEY required.
ENV NODE_ENV=production \
    APP_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only, and of them only what the server runs, in one layer so that nothing removed stays in
# the image: not TypeScript (an optional peer of i18next that npm installs beside the dev tools for its types), not
# the type declarations, source maps, TypeScript sources and documents that packages ship beside their built code.
RUN npm ci --omit=dev \
 && rm -rf node_modules/typescript node_modules/zod/src \
 && find node_modules -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.md' -o -name '*.markdown' \) -delete \
 && npm cache clean --force
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
