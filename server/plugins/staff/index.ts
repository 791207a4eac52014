import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StaffRole } from '../../db/schema-staff';
import { AppError } from '../../errors';
import { loadAccountRules } from '../accounts';
import { staffRoutes } from './routes';
import { StaffService, type StaffLoginRules } from './service';
import { staffTokens, type StaffTokens } from './tokens';

/** The staff audit log: every feature's staff action writes its row here (back office, chat). */
export { recordStaffAction, type StaffAction } from './audit';

export interface StaffPluginOptions {
  /** The guess limits of staff logins; the players' login numbers (LOGIN_MAX_FAILURES...) unless a test passes its own. */
  rules?: StaffLoginRules;
}

type Hook = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * onRequest hook of every staff route (`{ onRequest: app.authenticateStaff }`): refuses anything but a live
     * staff token with 401 before the body is read; sets request.staffId, staffRole, staffName, staffUsername and
     * staffSessionId. Moved behind the global rate limiter like app.authenticate.
     */
    authenticateStaff: Hook;
    /**
     * An onRequest hook allowing only the given roles, for routes that also have app.authenticateStaff:
     * `{ onRequest: [app.authenticateStaff, app.staffRole('admin')] }`; 403 UNAUTHORIZED for other roles.
     */
    staffRole: (...roles: StaffRole[]) => Hook;
    /** Staff tokens: issue, verify (the /staff socket namespace checks its handshake token here), revoke. */
    staffTokens: StaffTokens;
  }
  interface FastifyRequest {
    staffId: number;
    staffRole: StaffRole;
    staffName: string;
    staffUsername: string;
    staffSessionId: string;
  }
}

const BEARER = /^Bearer\s+(\S+)$/i;

/** Staff accounts of the /staff console and their tokens (docs/staff.md). */
export default fp<StaffPluginOptions>(
  async (app, opts) => {
    const rules = opts.rules ?? loadAccountRules();
    const tokens = staffTokens(app.db, app.config.jwtSecret, () => app.clock.now());
    app.decorate('staffTokens', tokens);

    app.decorateRequest('staffId', 0);
    app.decorateRequest('staffRole', 'support');
    app.decorateRequest('staffName', '');
    app.decorateRequest('staffUsername', '');
    app.decorateRequest('staffSessionId', '');

    const authenticateStaff: Hook = async (req) => {
      const header = req.headers.authorization;
      const m = header ? BEARER.exec(header) : null;
      if (!m) throw new AppError(401, 'UNAUTHORIZED');
      const who = await tokens.verify(m[1]);
      req.staffId = who.staffId;
      req.staffRole = who.role;
      req.staffName = who.name;
      req.staffUsername = who.username;
      req.staffSessionId = who.sessionId;
    };
    app.decorate('authenticateStaff', authenticateStaff);

    const roleGuards = new WeakSet<Hook>();
    app.decorate('staffRole', (...roles: StaffRole[]) => {
      const guard: Hook = async (req) => {
        if (!roles.includes(req.staffRole)) throw new AppError(403, 'UNAUTHORIZED');
      };
      roleGuards.add(guard);
      return guard;
    });

    // As auth.ts does for players: the global rate limit appends its onRequest hook after the route's own, so move
    // the staff check (and then the role guards, which need its answer) behind it.
    app.addHook('onRoute', (route) => {
      const hooks = ([] as Hook[]).concat((route.onRequest ?? []) as Hook | Hook[]);
      const guards = hooks.filter((h) => roleGuards.has(h));
      if (!hooks.includes(authenticateStaff)) {
        if (guards.length) throw new Error(`${String(route.method)} ${route.url}: app.staffRole needs app.authenticateStaff before it`);
        return;
      }
      const rest = hooks.filter((h) => h !== authenticateStaff && !roleGuards.has(h));
      route.onRequest = [...rest, authenticateStaff, ...guards] as typeof route.onRequest;
    });

    await app.register(staffRoutes, { service: new StaffService(app, rules) });
  },
  { name: 'staff-auth', dependencies: ['db', 'auth'] },
);
