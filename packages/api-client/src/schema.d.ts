// Generated from the service's OpenAPI document by `npm run generate:api-client`; do not edit.
// test/packages/api-client.test.ts fails when this file differs from what the routes declare.

export interface paths {
    "/api/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create an account: with an organization the person administers and a first project, or through an invitation as a member of the inviting organization */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        password: string;
                        name: string;
                        organizationName?: string;
                        invitationToken?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            token: string;
                            /** Format: date-time */
                            expiresAt: string;
                            user: {
                                id: string;
                                email: string;
                                name: string;
                                /** Format: date-time */
                                createdAt: string;
                            };
                            organization: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                /** @enum {string} */
                                role: "admin" | "write" | "read-only";
                            };
                            /** @description the first project; null when the account joined an organization through an invitation */
                            project: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                framework: string;
                                /** Format: uuid */
                                organizationId: string;
                                /** @description the ingest token */
                                token: string;
                            } | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with e-mail and password: a dashboard session token, or a CLI token when a first-party `clientId` asks */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        password: string;
                        clientId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            token: string;
                            /** Format: date-time */
                            expiresAt: string;
                            user: {
                                id: string;
                                email: string;
                                name: string;
                                /** Format: date-time */
                                createdAt: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description unknown address or wrong password (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sign-out": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ends the session the bearer token is (dashboard session or CLI token; a device access token ends its device login); idempotent */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description ended, or nothing left to end */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no bearer credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mail a password reset link (answers 202 whether or not the address has an account) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status?: "sent";
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password-reset/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set a new password with the token of a reset link; answers a new dashboard session */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        token: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            token: string;
                            /** Format: date-time */
                            expiresAt: string;
                            user: {
                                id: string;
                                email: string;
                                name: string;
                                /** Format: date-time */
                                createdAt: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Sign-in options: password sign-in and reset, the password rule, and the configured social providers with their start URLs */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            passwordSignIn?: boolean;
                            /** @description false when no mail server is configured */
                            passwordReset?: boolean;
                            /** @description fewest characters a new password may have (PASSWORD_MIN_LENGTH); forms check it before sending */
                            passwordMinLength?: number;
                            /** @description whether someone may register now without an invitation (REGISTRATION policy; first-user closes after the first account) */
                            registrationOpen?: boolean;
                            providers?: {
                                id?: string;
                                name?: string;
                                startUrl?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/oauth/{provider}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Start signing in with a provider: redirects the browser to it */
        get: {
            parameters: {
                query?: {
                    /** @description An invitation token: a new account joins the inviting organization */
                    invitation?: string;
                    /** @description A path on this site to land on after signing in */
                    redirect?: string;
                };
                header?: never;
                path: {
                    provider: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Redirect (Location header) */
                302: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/oauth/{provider}/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where the provider sends the browser back: signs in and redirects to the dashboard */
        get: {
            parameters: {
                query?: {
                    state?: string;
                    code?: string;
                    error?: string;
                };
                header?: never;
                path: {
                    provider: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Redirect (Location header) */
                302: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-authorization-server": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OAuth 2.0 authorization server metadata (RFC 8414), with the device authorization endpoint (RFC 8628) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            issuer: string;
                            token_endpoint: string;
                            device_authorization_endpoint: string;
                            grant_types_supported: string[];
                            response_types_supported: string[];
                            token_endpoint_auth_methods_supported: string[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-protected-resource": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OAuth 2.0 protected resource metadata (RFC 9728) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            resource: string;
                            authorization_servers: string[];
                            bearer_methods_supported: string[];
                            resource_name: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/invitations/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** What an open invitation offers (organization name, address, role), for the holder of its token */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            organization?: {
                                name?: string;
                            };
                            email?: string;
                            /** @enum {string} */
                            role?: "admin" | "write" | "read-only";
                            /** Format: date-time */
                            expiresAt?: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller, and the organizations they belong to with their role in each */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            user: {
                                id: string;
                                email: string;
                                name: string;
                                /** Format: date-time */
                                createdAt: string;
                            };
                            organizations: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                /** @enum {string} */
                                role: "admin" | "write" | "read-only";
                                /** @description a suspended organization answers 403 on its projects */
                                suspended: boolean;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change the caller's display name (trimmed; 1 to 200 characters) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            user: {
                                id: string;
                                email: string;
                                name: string;
                                /** Format: date-time */
                                createdAt: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/auth/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change the caller's password; ends their other sessions and answers a new dashboard session */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        currentPassword: string;
                        newPassword: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            token: string;
                            /** Format: date-time */
                            expiresAt: string;
                            user: {
                                id: string;
                                email: string;
                                name: string;
                                /** Format: date-time */
                                createdAt: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's live dashboard sessions and CLI password logins, newest first (their CLI device logins are at /api/auth/device-sessions) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            sessions: {
                                /** @description the session (its token id) */
                                id: string;
                                /**
                                 * @description `session`: a dashboard sign-in; `cli`: a CLI password login
                                 * @enum {string}
                                 */
                                kind: "session" | "cli";
                                /** @description whether this is the session the request was made with */
                                current: boolean;
                                /**
                                 * Format: date-time
                                 * @description when the person signed in
                                 */
                                createdAt: string;
                                /**
                                 * Format: date-time
                                 * @description the last request made with it, to within about five minutes
                                 */
                                lastUsedAt: string;
                                /** Format: date-time */
                                expiresAt: string;
                                /** @description the client address the sign-in came from */
                                ip: string | null;
                                /** @description the sign-in's User-Agent; null when none was sent */
                                userAgent: string | null;
                            }[];
                        };
                    };
                };
                /** @description no valid credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": unknown;
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Ends one of the caller's sessions (the current one too): its token is refused from the next request on */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "ended";
                        };
                    };
                };
                /** @description no valid credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": unknown;
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sessions/end-others": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Signs the caller out everywhere else: every other dashboard session and CLI password login, and every CLI device login; the session making the request stays (with a personal access token, none stays) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description dashboard sessions and CLI password logins ended */
                            endedSessions: number;
                            /** @description CLI device logins revoked */
                            revokedDeviceLogins: number;
                        };
                    };
                };
                /** @description no valid credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": unknown;
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/personal-access-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's personal access tokens (never their secrets) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tokens: {
                                id: string;
                                name: string;
                                /** @description the first characters of the token, to recognise it */
                                prefix: string;
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                expiresAt: string | null;
                                /** Format: date-time */
                                lastUsedAt: string | null;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a personal access token (the secret is in this answer only) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description required, at most 100 characters */
                        name?: unknown;
                        /** @description optional integer, 1 to 3650; without it the token does not expire */
                        expiresInDays?: unknown;
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            /** @description the first characters of the token, to recognise it */
                            prefix: string;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            expiresAt: string | null;
                            token: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        /**
         * Revoke every one of the caller's personal access tokens at once
         * @description An extension beyond the spec, for a lost or stolen machine: every token of the caller not yet revoked (expired ones too) is refused from the next request on; `revoked` counts them, so a second call answers 0. Takes a dashboard session or a personal access token (which revokes itself with the rest), not a CLI or device token (403); 429 past 10 a minute per client address.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description how many tokens this call revoked */
                            revoked: number;
                        };
                    };
                };
                /** @description no valid credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": unknown;
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/personal-access-tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke one of the caller's personal access tokens */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "revoked";
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/device/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a device authorization (RFC 8628 §3.1); body `client_id` (optional, a first-party client) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            device_code: string;
                            user_code: string;
                            verification_uri: string;
                            verification_uri_complete: string;
                            /** @description seconds */
                            expires_in: number;
                            /** @description seconds the client waits between polls */
                            interval: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            error_description?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/device/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Token endpoint: `grant_type` device_code (or its RFC 8628 URN) with `device_code`, or refresh_token with `refresh_token` */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access_token: string;
                            refresh_token: string;
                            /** @enum {string} */
                            token_type: "Bearer";
                            /** @description seconds */
                            expires_in: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            error_description?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End a device login: body `refresh_token`; its whole refresh-token family is revoked */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "revoked";
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            error_description?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/device": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The pending device request of a user code, to show whom it comes from before approving */
        get: {
            parameters: {
                query?: {
                    user_code?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            userCode: string;
                            clientId: string;
                            clientName: string;
                            /** Format: date-time */
                            requestedAt: string;
                            /** Format: date-time */
                            expiresAt: string;
                            requesterIp: string | null;
                            requesterUserAgent: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/device/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve a pending device request */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        user_code?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "approved";
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/device/deny": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deny a pending device request */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        user_code?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "denied";
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/device-sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's active CLI logins (device authorizations whose refresh-token family is live) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            sessions: {
                                /**
                                 * Format: uuid
                                 * @description the login (refresh-token family)
                                 */
                                id: string;
                                clientId: string;
                                clientName: string;
                                /**
                                 * Format: date-time
                                 * @description when the device login was approved and its first tokens issued
                                 */
                                createdAt: string;
                                /**
                                 * Format: date-time
                                 * @description when the client last obtained tokens (the login or its latest refresh); a client in use refreshes its 15-minute access token, so this is its last use to within 15 minutes
                                 */
                                lastUsedAt: string;
                                /**
                                 * Format: date-time
                                 * @description when the login ends unless refreshed (90 days after the latest refresh)
                                 */
                                expiresAt: string;
                                /** @description the address the device authorization was requested from; null for a login made before it was kept */
                                requesterIp: string | null;
                                /** @description the requesting client's User-Agent, as the approval page showed it; null when none was sent */
                                requesterUserAgent: string | null;
                            }[];
                        };
                    };
                };
                /** @description no valid credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": unknown;
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/device-sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revokes one of the caller's CLI logins: its refresh token is refused from now on and its access tokens stop at once */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "revoked";
                        };
                    };
                };
                /** @description no valid credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": unknown;
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every project the caller can reach, with their role in it */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            projects: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                framework: string;
                                /** Format: uuid */
                                organizationId: string;
                                /** @description where the project's backend answers (empty when not set) */
                                backendUrl: string;
                                /**
                                 * @description the caller's role in the project
                                 * @enum {string}
                                 */
                                role: "admin" | "write" | "read-only";
                                /** @description the ingest token; a placeholder for read-only members */
                                token: string;
                            }[];
                        };
                    };
                };
            };
        };
        /** Rename the project, or change its framework or backend URL (write access) */
        put: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        /** @description one of opentelemetry, go, nodejs, nestjs, javascript, react, vue, svelte, flutter, ios, android, react-native; another value is refused (422) */
                        framework?: string;
                        backendUrl?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            id: string;
                            name: string;
                            framework: string;
                            /** Format: uuid */
                            organizationId: string;
                            /** @description where the project's backend answers (empty when not set) */
                            backendUrl: string;
                            /**
                             * @description the caller's role in the project
                             * @enum {string}
                             */
                            role: "admin" | "write" | "read-only";
                            /** @description the ingest token; a placeholder for read-only members */
                            token: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        /** Create a project next to the one of `projectId`, in its organization or in `organizationId` (write role there; within the plan's project limit). Without `projectId` the body's `organizationId` alone names where: a person without any project creates their first one so. */
        post: {
            parameters: {
                query?: {
                    /** @description The project to read (authorized per caller). */
                    projectId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        /** @description one of opentelemetry, go, nodejs, nestjs, javascript, react, vue, svelte, flutter, ios, android, react-native; another value is refused (422) */
                        framework?: string;
                        organizationId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            id: string;
                            name: string;
                            framework: string;
                            /** Format: uuid */
                            organizationId: string;
                            /** @description where the project's backend answers (empty when not set) */
                            backendUrl: string;
                            /**
                             * @description the caller's role in the project
                             * @enum {string}
                             */
                            role: "admin" | "write" | "read-only";
                            /** @description the ingest token; a placeholder for read-only members */
                            token: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        /** @description Deletes the project (write access). Its ingest token stops at once; its telemetry and stored objects (recordings, profiles, AI conversations, symbol files) are removed in the background within a few minutes. The organization's month of ingest usage is kept for billing. */
        delete: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "deleted";
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/connection": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's tokens for the Connection page (placeholders for read-only members) */
        get: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            projectId: string;
                            /** @description ingest token */
                            token: string;
                            /** @description debug-symbol upload token */
                            uploadToken: string;
                            /** @description source-map upload token */
                            sourceMapToken: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/data-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the project has received telemetry: the newest event of the last 24 hours, and whether it holds any at all; both read only what the organization's plan keeps */
        get: {
            parameters: {
                query: {
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * Format: date-time
                             * @description time of the newest event of the last 24 hours (as its client stamped it); null when there is none
                             */
                            lastEventAt: string | null;
                            /** @description whether the project holds any event its plan still keeps, older ones included; false when all of them are past the plan's retention */
                            hasData: boolean;
                            /** @description true when the project has no event its plan still keeps (hasData false) but received data before: all of it is past the plan's retention; false when it never received any */
                            expiredData: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Rotates the ingest token (write access): the previous token stops at once on every process; reports sent with it get 401. */
        post: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            token: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/source-map-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Rotates the source-map upload token (write access); the previous token stops at once. */
        post: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            sourceMapToken: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/upload-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Rotates the debug-symbol upload token (write access); the previous token stops at once. */
        post: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            uploadToken: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** @description Creates an organization on the default plan with the caller as its only admin. The name follows the rename rules (422). With registration closed (REGISTRATION first-user or invite-only) only an admin of an organization may (403 otherwise); 429 past 10 an hour per person. */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            id: string;
                            name: string;
                            /** @enum {string} */
                            role: "admin" | "write" | "read-only";
                            /** @description a suspended organization answers 403 on its projects */
                            suspended: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{organizationId}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The members of the organization */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    organizationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            members: {
                                /** Format: uuid */
                                userId: string;
                                email: string;
                                name: string;
                                /** @enum {string} */
                                role: "admin" | "write" | "read-only";
                                /** Format: date-time */
                                joinedAt: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{organizationId}/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change a member's role (admin; never the last admin's) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    organizationId: string;
                    userId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        role: "admin" | "write" | "read-only";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            userId: string;
                            email: string;
                            name: string;
                            /** @enum {string} */
                            role: "admin" | "write" | "read-only";
                            /** Format: date-time */
                            joinedAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        post?: never;
        /** Remove a member (admin), or leave (any member); never the last admin */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    organizationId: string;
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "removed";
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{organizationId}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's invitations, open and past (admin) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    organizationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            invitations: {
                                /** Format: uuid */
                                id: string;
                                email: string;
                                /** @enum {string} */
                                role: "admin" | "write" | "read-only";
                                /** @enum {string} */
                                status: "pending" | "expired" | "accepted" | "revoked";
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                expiresAt: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** @description Invites an address (admin); with mail configured the link is mailed to it. 422 at the seat limit; 429 past 50 invitations an hour from the organization or 5 an hour to the address from all organizations. */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    organizationId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        /** @enum {string} */
                        role: "admin" | "write" | "read-only";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            id: string;
                            email: string;
                            /** @enum {string} */
                            role: "admin" | "write" | "read-only";
                            /** @enum {string} */
                            status: "pending" | "expired" | "accepted" | "revoked";
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            expiresAt: string;
                            /** @description the invitation secret (in this answer only) */
                            token: string;
                            /** @description the link that accepts the invitation */
                            acceptUrl: string;
                            /** @description whether a mail to the invitee was queued (mail configured) */
                            mailQueued: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{organizationId}/invitations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an open invitation (admin) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    organizationId: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "revoked";
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/{organizationId}/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's settings */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    organizationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            name: string;
                            /** @description IANA time zone name; UTC unless set */
                            timezone: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        /** Rename the organization or change its time zone (admin) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    organizationId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        timezone?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            name: string;
                            /** @description IANA time zone name; UTC unless set */
                            timezone: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/invitations/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accept an invitation as the signed-in user */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        token: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            organization: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                                /** @enum {string} */
                                role: "admin" | "write" | "read-only";
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The plan catalogue, and whether checkout and the customer portal can work here */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            plans: {
                                code: string;
                                name: string;
                                /** @description the plan of an organization without a subscription */
                                default: boolean;
                                /** @description the plan's limits */
                                limits: {
                                    projects: number;
                                    seats: number;
                                    ingest_gb_monthly: number;
                                    retention_days_hot: number;
                                    retention_days_warm: number;
                                    synthetics_checks: number;
                                    session_recordings: number;
                                };
                                /** @description ISO 4217, lower case */
                                currency: string;
                                /** @description price per interval in minor units; null when not sold on it */
                                prices: {
                                    month: number | null;
                                    year: number | null;
                                };
                            }[];
                            billingConfigured: boolean;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/stripe/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The payment provider's webhook (signature verified) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            received: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's usage this month, against its plan's limits */
        get: {
            parameters: {
                query?: {
                    /** @description the organization; optional for a member of only one */
                    organizationId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            usage: {
                                planCode: string;
                                /** @description the month counted, YYYY-MM */
                                periodStart: string;
                                counters: {
                                    /** @description decompressed bytes ingested this calendar month across the projects */
                                    ingest_bytes: number;
                                    projects: number;
                                    seats: number;
                                };
                                /** @description the plan's limits */
                                limits: {
                                    projects: number;
                                    seats: number;
                                    ingest_gb_monthly: number;
                                    retention_days_hot: number;
                                    retention_days_warm: number;
                                    synthetics_checks: number;
                                    session_recordings: number;
                                };
                                /** @description days each telemetry table keeps a row, read from its TTL in the engine (an operator may have changed one); null where it has no TTL the service can read. A plan keeping fewer days than a table's is what bounds that table */
                                tableRetentionDays: {
                                    endpoints: number | null;
                                    tasks: number | null;
                                    ai_traces: number | null;
                                    spans: number | null;
                                    exceptions: number | null;
                                    metric_points: number | null;
                                    logs: number | null;
                                    sessions: number | null;
                                    session_recordings: number | null;
                                    profiles: number | null;
                                    endpoint_hourly: number | null;
                                };
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/subscription": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's subscription (the default plan, provider none, without one) */
        get: {
            parameters: {
                query?: {
                    /** @description the organization; optional for a member of only one */
                    organizationId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            subscription: {
                                planCode: string;
                                /** @enum {string} */
                                status: "trialing" | "active" | "past_due" | "canceled" | "unpaid" | "incomplete" | "incomplete_expired" | "paused";
                                /** @enum {string} */
                                provider: "none" | "stripe";
                                /** @enum {string|null} */
                                interval: "month" | "year" | null;
                                /** Format: date-time */
                                currentPeriodStart: string | null;
                                /** Format: date-time */
                                currentPeriodEnd: string | null;
                                cancelAtPeriodEnd: boolean;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a checkout of a plan on an interval (admin); answers the provider's checkout page */
        post: {
            parameters: {
                query?: {
                    /** @description the organization; optional for a member of only one */
                    organizationId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        planCode: string;
                        interval: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description the payment provider's page to send the person to */
                            url: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/billing/portal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The payment provider's customer portal for the organization (admin) */
        post: {
            parameters: {
                query?: {
                    /** @description the organization; optional for a member of only one */
                    organizationId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description the payment provider's page to send the person to */
                            url: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/symbols/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sourcemaps/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload JavaScript source maps (and optionally their .js files) of a release
         * @description `Authorization: Bearer <source-map token>` (the project's source-map token, shown on its Connection page, is the only credential accepted; anything else is 401 with an empty body). multipart/form-data: `files` (repeatable) holds `.map` files and optionally their `.js` files, named by their path in the build folder (`assets/main.4f3a.js.map`); `release` is the app version the clients report (appVersion on the report route, service.version on OTLP); `urlPrefix` (default `~/`, where `~` stands for any origin) is where the files are served, e.g. `~/assets/` or `/srv/app/dist/` for Node. A map belongs to the `.js` of the upload whose `//# sourceMappingURL=` names it, else to its `file` field, else to its name without `.map`. A map with `debugId` (or `debug_id`), or whose `.js` carries `//# debugId=`, is matched by that id whatever the release, when the client sends the `sightline.debug_ids` attribute; it needs no release. Re-uploading a release is idempotent. Files that are not usable maps are skipped with their reason; the others are stored. Limits and statuses are the symbol upload's: 200 MB a file (400), 250 MB a request (413), about 1000 parts (422), 503 with Retry-After when too many uploads are in flight.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description files accepted: maps stored, and the .js files that named one of them */
                            uploaded: number;
                            skipped: {
                                file: string;
                                reason: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exception-stack-traces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Exceptions grouped by stack-trace hash and ranked, with sparklines, the linked endpoint or task, and the issue status */
        post: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description ISO 8601 start (inclusive); default toDate - 24 h */
                        fromDate?: string;
                        /** @description ISO 8601 end (exclusive); default now; at most 31 days after fromDate */
                        toDate?: string;
                        pagination?: {
                            page: number;
                            pageSize: number;
                        };
                        /** @description Conjunction of conditions on the route's filterable fields; map columns as "attributes.<key>". */
                        filters?: {
                            field: string;
                            /** @enum {string} */
                            op: "eq" | "neq" | "contains" | "gt" | "gte" | "lt" | "lte";
                            value: string | number | boolean;
                        }[];
                        search?: string;
                        /** @enum {string} */
                        orderBy?: "count" | "lastSeen" | "firstSeen" | "sessionsAffected" | "usersAffected";
                        /** @enum {string} */
                        sortDirection?: "asc" | "desc";
                        /**
                         * @description only issues in this status (open includes issues ingest has not registered yet); reads at most 10000 resolved or ignored hashes
                         * @enum {string}
                         */
                        status?: "open" | "resolved" | "ignored";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                hash: string;
                                title: string;
                                stackTrace: string;
                                isMessage: boolean;
                                count: number;
                                sessionsAffected: number;
                                usersAffected: number;
                                firstSeen: string | null;
                                lastSeen: string | null;
                                /** @description occurrences per bucket (bucketSeconds), oldest first */
                                sparkline: number[];
                                linked: {
                                    /** @enum {string} */
                                    kind: "endpoint" | "task";
                                    id: string;
                                    /** @description the endpoint's or task's name; null when its call is not found (from a day before the range, and no earlier than the plan keeps) */
                                    name: string | null;
                                } | null;
                                /** @enum {string} */
                                status: "open" | "resolved" | "ignored";
                                /** @description when an occurrence last reopened the resolved issue */
                                regressedAt: string | null;
                                regressedVersion: string | null;
                                /** @description resolved "in the next version": occurrences of newer versions regress it */
                                resolvedInVersion: string | null;
                                ignoredUntil: string | null;
                                /** @description ignored until this many more occurrences */
                                ignoreOccurrences: number | null;
                                statusChangedAt: string | null;
                                /** @description null when the service changed it (a regression) or nobody did */
                                statusChangedBy: {
                                    id: string;
                                    name: string;
                                } | null;
                            }[];
                            page: number;
                            pageSize: number;
                            total?: number;
                            hasMore: boolean;
                            bucketSeconds?: number;
                            bucketStarts?: number[];
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exception-stack-traces/{hash}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Occurrences of one exception group: full and raw trace, attributes, linked trace, session and recording */
        post: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path: {
                    hash: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description ISO 8601 start (inclusive); default toDate - 24 h */
                        fromDate?: string;
                        /** @description ISO 8601 end (exclusive); default now; at most 31 days after fromDate */
                        toDate?: string;
                        pagination?: {
                            page: number;
                            pageSize: number;
                        };
                        /** @description Conjunction of conditions on the route's filterable fields; map columns as "attributes.<key>". */
                        filters?: {
                            field: string;
                            /** @enum {string} */
                            op: "eq" | "neq" | "contains" | "gt" | "gte" | "lt" | "lte";
                            value: string | number | boolean;
                        }[];
                        search?: string;
                        /** @enum {string} */
                        orderBy?: "recordedAt";
                        /** @enum {string} */
                        sortDirection?: "asc" | "desc";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                recordedAt: string | null;
                                stackTrace: string;
                                rawStackTrace: string;
                                isMessage: boolean;
                                traceId: string | null;
                                isTask: boolean;
                                linked: {
                                    /** @enum {string} */
                                    kind: "endpoint" | "task";
                                    id: string;
                                    /** @description the endpoint's or task's name; null when its call is not found (from a day before the range, and no earlier than the plan keeps) */
                                    name: string | null;
                                } | null;
                                sessionId: string | null;
                                sessionRecordingId: string | null;
                                /** @description whether GET /api/sessions/{sessionId}/recording answers: the session and a segment of it are within the plan's retention */
                                hasRecording: boolean;
                                distributedTraceId: string | null;
                                serverName: string;
                                appVersion: string;
                                attributes: {
                                    [key: string]: string;
                                };
                                source: string;
                            }[];
                            page: number;
                            pageSize: number;
                            total?: number;
                            hasMore: boolean;
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Inbound HTTP endpoints ranked by Impact, with Apdex, P50/P95/P99, error and client-error rates */
        post: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description ISO 8601 start (inclusive); default toDate - 24 h */
                        fromDate?: string;
                        /** @description ISO 8601 end (exclusive); default now; at most 31 days after fromDate */
                        toDate?: string;
                        pagination?: {
                            page: number;
                            pageSize: number;
                        };
                        /** @description Conjunction of conditions on the route's filterable fields; map columns as "attributes.<key>". */
                        filters?: {
                            field: string;
                            /** @enum {string} */
                            op: "eq" | "neq" | "contains" | "gt" | "gte" | "lt" | "lte";
                            value: string | number | boolean;
                        }[];
                        search?: string;
                        /** @enum {string} */
                        orderBy?: "impact" | "requests" | "p50" | "p95" | "p99" | "errorRate" | "clientErrorRate" | "apdex" | "name" | "lastSeen";
                        /** @enum {string} */
                        sortDirection?: "asc" | "desc";
                        /** @description Apdex T in milliseconds (default 500) */
                        apdexThresholdMs?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                name: string;
                                method: string;
                                route: string;
                                requests: number;
                                serverErrors: number;
                                clientErrors: number;
                                streamingRequests: number;
                                /** @description true when any request streamed (SSE, WebSocket): excluded from latency and Apdex */
                                streaming: boolean;
                                p50Ms: number | null;
                                p95Ms: number | null;
                                p99Ms: number | null;
                                apdex: number | null;
                                errorRate: number;
                                clientErrorRate: number;
                                impact: number;
                                impactComponents: {
                                    apdex: number;
                                    errorRate: number;
                                    p99: number;
                                    clientErrorRate: number;
                                    volumeWeightedErrorRate: number;
                                };
                                reason: string;
                                lastSeen: string | null;
                            }[];
                            page: number;
                            pageSize: number;
                            total?: number;
                            hasMore: boolean;
                            apdexThresholdMs?: number;
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/grouped": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Endpoints rolled up by route template (all methods of a route together) */
        post: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description ISO 8601 start (inclusive); default toDate - 24 h */
                        fromDate?: string;
                        /** @description ISO 8601 end (exclusive); default now; at most 31 days after fromDate */
                        toDate?: string;
                        pagination?: {
                            page: number;
                            pageSize: number;
                        };
                        /** @description Conjunction of conditions on the route's filterable fields; map columns as "attributes.<key>". */
                        filters?: {
                            field: string;
                            /** @enum {string} */
                            op: "eq" | "neq" | "contains" | "gt" | "gte" | "lt" | "lte";
                            value: string | number | boolean;
                        }[];
                        search?: string;
                        /** @enum {string} */
                        orderBy?: "impact" | "requests" | "p50" | "p95" | "p99" | "errorRate" | "clientErrorRate" | "apdex" | "name" | "lastSeen";
                        /** @enum {string} */
                        sortDirection?: "asc" | "desc";
                        /** @description Apdex T in milliseconds (default 500) */
                        apdexThresholdMs?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                name: string;
                                method: string;
                                route: string;
                                requests: number;
                                serverErrors: number;
                                clientErrors: number;
                                streamingRequests: number;
                                /** @description true when any request streamed (SSE, WebSocket): excluded from latency and Apdex */
                                streaming: boolean;
                                p50Ms: number | null;
                                p95Ms: number | null;
                                p99Ms: number | null;
                                apdex: number | null;
                                errorRate: number;
                                clientErrorRate: number;
                                impact: number;
                                impactComponents: {
                                    apdex: number;
                                    errorRate: number;
                                    p99: number;
                                    clientErrorRate: number;
                                    volumeWeightedErrorRate: number;
                                };
                                reason: string;
                                lastSeen: string | null;
                            }[];
                            page: number;
                            pageSize: number;
                            total?: number;
                            hasMore: boolean;
                            apdexThresholdMs?: number;
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/detail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** One endpoint by name: totals, series, slowest and failing calls */
        post: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description ISO 8601 start (inclusive); default toDate - 24 h */
                        fromDate?: string;
                        /** @description ISO 8601 end (exclusive); default now; at most 31 days after fromDate */
                        toDate?: string;
                        name: string;
                        /** @description calls in each of slowest, failing and recent (default 10; 0: none, page them with the calls route) */
                        limit?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            name: string;
                            fromDate: string;
                            toDate: string;
                            bucketSeconds: number;
                            count: number;
                            /** @description an endpoint's calls answered with a server error (5xx); a task's failed runs: a server-error status (an OpenTelemetry span with an ERROR status) or an exception recorded on the run (the report protocol sends tasks with status 0) (so are the series' errors) */
                            serverErrors: number;
                            clientErrors: number;
                            p50Ms: number | null;
                            p95Ms: number | null;
                            p99Ms: number | null;
                            series: {
                                t: number[];
                                count: number[];
                                errors: number[];
                                p50Ms: (number | null)[];
                                p95Ms: (number | null)[];
                                p99Ms: (number | null)[];
                            };
                            /** @description calls per status code, most frequent first (at most 50 codes) */
                            statusCodes: {
                                statusCode: number;
                                count: number;
                            }[];
                            slowest: {
                                id: string;
                                recordedAt: string | null;
                                durationMs: number;
                                statusCode: number;
                                distributedTraceId: string | null;
                                serverName: string;
                                attributes: {
                                    [key: string]: string;
                                };
                            }[];
                            failing: {
                                id: string;
                                recordedAt: string | null;
                                durationMs: number;
                                statusCode: number;
                                distributedTraceId: string | null;
                                serverName: string;
                                attributes: {
                                    [key: string]: string;
                                };
                            }[];
                            /** @description the newest calls */
                            recent: {
                                id: string;
                                recordedAt: string | null;
                                durationMs: number;
                                statusCode: number;
                                distributedTraceId: string | null;
                                serverName: string;
                                attributes: {
                                    [key: string]: string;
                                };
                            }[];
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/calls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A page of one endpoint's calls: slowest first by default, or newest, or failing only */
        post: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description ISO 8601 start (inclusive); default toDate - 24 h */
                        fromDate?: string;
                        /** @description ISO 8601 end (exclusive); default now; at most 31 days after fromDate */
                        toDate?: string;
                        name: string;
                        /** @description only an endpoint's calls answered 4xx or 5xx; a task's failed runs: a server-error status (an OpenTelemetry span with an ERROR status) or an exception recorded on the run (the report protocol sends tasks with status 0) */
                        failing?: boolean;
                        /**
                         * @description default duration
                         * @enum {string}
                         */
                        orderBy?: "duration" | "recordedAt";
                        /**
                         * @description default desc
                         * @enum {string}
                         */
                        sortDirection?: "asc" | "desc";
                        pagination?: {
                            page: number;
                            pageSize: number;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                id: string;
                                recordedAt: string | null;
                                durationMs: number;
                                statusCode: number;
                                distributedTraceId: string | null;
                                serverName: string;
                                attributes: {
                                    [key: string]: string;
                                };
                            }[];
                            page: number;
                            pageSize: number;
                            total?: number;
                            hasMore: boolean;
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/endpoints/series": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Total time per bucket of the endpoints with the most total time (top N) and of all others; streaming requests left out */
        post: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description ISO 8601 start (inclusive); default toDate - 24 h */
                        fromDate?: string;
                        /** @description ISO 8601 end (exclusive); default now; at most 31 days after fromDate */
                        toDate?: string;
                        /** @description Conjunction of conditions on the route's filterable fields; map columns as "attributes.<key>". */
                        filters?: {
                            field: string;
                            /** @enum {string} */
                            op: "eq" | "neq" | "contains" | "gt" | "gte" | "lt" | "lte";
                            value: string | number | boolean;
                        }[];
                        search?: string;
                        /** @description how many series before "other" (default 8) */
                        top?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            bucketSeconds: number;
                            bucketStarts: number[];
                            series: {
                                name: string;
                                totalMs: number[];
                            }[];
                            other: number[];
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tasks/series": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Total run time per bucket of the tasks with the most total time (top N) and of all others */
        post: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description ISO 8601 start (inclusive); default toDate - 24 h */
                        fromDate?: string;
                        /** @description ISO 8601 end (exclusive); default now; at most 31 days after fromDate */
                        toDate?: string;
                        /** @description Conjunction of conditions on the route's filterable fields; map columns as "attributes.<key>". */
                        filters?: {
                            field: string;
                            /** @enum {string} */
                            op: "eq" | "neq" | "contains" | "gt" | "gte" | "lt" | "lte";
                            value: string | number | boolean;
                        }[];
                        search?: string;
                        /** @description how many series before "other" (default 8) */
                        top?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            bucketSeconds: number;
                            bucketStarts: number[];
                            series: {
                                name: string;
                                totalMs: number[];
                            }[];
                            other: number[];
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Background tasks ranked by count x (P95 - P50) */
        post: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description ISO 8601 start (inclusive); default toDate - 24 h */
                        fromDate?: string;
                        /** @description ISO 8601 end (exclusive); default now; at most 31 days after fromDate */
                        toDate?: string;
                        pagination?: {
                            page: number;
                            pageSize: number;
                        };
                        /** @description Conjunction of conditions on the route's filterable fields; map columns as "attributes.<key>". */
                        filters?: {
                            field: string;
                            /** @enum {string} */
                            op: "eq" | "neq" | "contains" | "gt" | "gte" | "lt" | "lte";
                            value: string | number | boolean;
                        }[];
                        search?: string;
                        /** @enum {string} */
                        orderBy?: "rank" | "count" | "p50" | "p95" | "p99" | "failures" | "name" | "lastSeen";
                        /** @enum {string} */
                        sortDirection?: "asc" | "desc";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                name: string;
                                count: number;
                                /** @description failed runs: a server-error status (an OpenTelemetry span with an ERROR status) or an exception recorded on the run (the report protocol sends tasks with status 0) */
                                failures: number;
                                p50Ms: number;
                                p95Ms: number;
                                p99Ms: number;
                                rank: number;
                                lastSeen: string | null;
                            }[];
                            page: number;
                            pageSize: number;
                            total?: number;
                            hasMore: boolean;
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tasks/detail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** One task by name: totals, series, slowest and failed runs */
        post: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description ISO 8601 start (inclusive); default toDate - 24 h */
                        fromDate?: string;
                        /** @description ISO 8601 end (exclusive); default now; at most 31 days after fromDate */
                        toDate?: string;
                        name: string;
                        /** @description calls in each of slowest, failing and recent (default 10; 0: none, page them with the calls route) */
                        limit?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            name: string;
                            fromDate: string;
                            toDate: string;
                            bucketSeconds: number;
                            count: number;
                            /** @description an endpoint's calls answered with a server error (5xx); a task's failed runs: a server-error status (an OpenTelemetry span with an ERROR status) or an exception recorded on the run (the report protocol sends tasks with status 0) (so are the series' errors) */
                            serverErrors: number;
                            clientErrors: number;
                            p50Ms: number | null;
                            p95Ms: number | null;
                            p99Ms: number | null;
                            series: {
                                t: number[];
                                count: number[];
                                errors: number[];
                                p50Ms: (number | null)[];
                                p95Ms: (number | null)[];
                                p99Ms: (number | null)[];
                            };
                            /** @description calls per status code, most frequent first (at most 50 codes) */
                            statusCodes: {
                                statusCode: number;
                                count: number;
                            }[];
                            slowest: {
                                id: string;
                                recordedAt: string | null;
                                durationMs: number;
                                statusCode: number;
                                distributedTraceId: string | null;
                                serverName: string;
                                attributes: {
                                    [key: string]: string;
                                };
                            }[];
                            failing: {
                                id: string;
                                recordedAt: string | null;
                                durationMs: number;
                                statusCode: number;
                                distributedTraceId: string | null;
                                serverName: string;
                                attributes: {
                                    [key: string]: string;
                                };
                            }[];
                            /** @description the newest calls */
                            recent: {
                                id: string;
                                recordedAt: string | null;
                                durationMs: number;
                                statusCode: number;
                                distributedTraceId: string | null;
                                serverName: string;
                                attributes: {
                                    [key: string]: string;
                                };
                            }[];
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tasks/calls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A page of one task's runs: slowest first by default, or newest, or failed only */
        post: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description ISO 8601 start (inclusive); default toDate - 24 h */
                        fromDate?: string;
                        /** @description ISO 8601 end (exclusive); default now; at most 31 days after fromDate */
                        toDate?: string;
                        name: string;
                        /** @description only an endpoint's calls answered 4xx or 5xx; a task's failed runs: a server-error status (an OpenTelemetry span with an ERROR status) or an exception recorded on the run (the report protocol sends tasks with status 0) */
                        failing?: boolean;
                        /**
                         * @description default duration
                         * @enum {string}
                         */
                        orderBy?: "duration" | "recordedAt";
                        /**
                         * @description default desc
                         * @enum {string}
                         */
                        sortDirection?: "asc" | "desc";
                        pagination?: {
                            page: number;
                            pageSize: number;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                id: string;
                                recordedAt: string | null;
                                durationMs: number;
                                statusCode: number;
                                distributedTraceId: string | null;
                                serverName: string;
                                attributes: {
                                    [key: string]: string;
                                };
                            }[];
                            page: number;
                            pageSize: number;
                            total?: number;
                            hasMore: boolean;
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ai-traces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** LLM calls ranked by total cost (default), with totals per model and per day */
        post: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description ISO 8601 start (inclusive); default toDate - 24 h */
                        fromDate?: string;
                        /** @description ISO 8601 end (exclusive); default now; at most 31 days after fromDate */
                        toDate?: string;
                        pagination?: {
                            page: number;
                            pageSize: number;
                        };
                        /** @description Conjunction of conditions on the route's filterable fields; map columns as "attributes.<key>". */
                        filters?: {
                            field: string;
                            /** @enum {string} */
                            op: "eq" | "neq" | "contains" | "gt" | "gte" | "lt" | "lte";
                            value: string | number | boolean;
                        }[];
                        search?: string;
                        /** @enum {string} */
                        orderBy?: "totalCost" | "recordedAt" | "durationMs" | "totalTokens";
                        /** @enum {string} */
                        sortDirection?: "asc" | "desc";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                id: string;
                                name: string;
                                recordedAt: string | null;
                                durationMs: number;
                                model: string;
                                provider: string;
                                operation: string;
                                inputTokens: number;
                                outputTokens: number;
                                cachedTokens: number;
                                reasoningTokens: number;
                                inputCost: number;
                                outputCost: number;
                                totalCost: number;
                                finishReason: string;
                                toolCalls: number;
                                isError: boolean;
                                distributedTraceId: string | null;
                                conversationId: string;
                            }[];
                            page: number;
                            pageSize: number;
                            total?: number;
                            hasMore: boolean;
                            perModel?: {
                                model: string;
                                provider: string;
                                count: number;
                                inputTokens: number;
                                outputTokens: number;
                                totalCost: number;
                            }[];
                            perDay?: {
                                day: string;
                                count: number;
                                totalCost: number;
                            }[];
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ai-traces/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One LLM call with its attributes, spans and the stored conversation */
        get: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            recordedAt: string | null;
                            durationMs: number;
                            model: string;
                            provider: string;
                            operation: string;
                            inputTokens: number;
                            outputTokens: number;
                            cachedTokens: number;
                            reasoningTokens: number;
                            inputCost: number;
                            outputCost: number;
                            totalCost: number;
                            finishReason: string;
                            toolCalls: number;
                            isError: boolean;
                            distributedTraceId: string | null;
                            conversationId: string;
                            attributes: {
                                [key: string]: string;
                            };
                            /** @description the stored conversation JSON, or null when none was stored */
                            conversation: unknown;
                            spans: {
                                spanId: string;
                                parentSpanId: string | null;
                                name: string;
                                kind: string;
                                startTime: string | null;
                                durationMs: number;
                                statusCode: number;
                                attributes: {
                                    [key: string]: string;
                                };
                                events: {
                                    time: string | null;
                                    name: string;
                                    attributes: {
                                        [key: string]: string;
                                    };
                                }[];
                            }[];
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/traces/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The span waterfall of one endpoint, task or AI trace (by entity id) */
        get: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            projectId: string;
                            /** @enum {string} */
                            kind: "endpoint" | "task" | "ai";
                            id: string;
                            name: string;
                            recordedAt: string | null;
                            durationMs: number;
                            statusCode: number;
                            isRoot: boolean;
                            parentSpanId: string | null;
                            distributedTraceId: string | null;
                            serverName: string;
                            appVersion: string;
                            /** @description the caller's address (endpoints; empty for tasks and AI traces) */
                            clientIp: string;
                            attributes: {
                                [key: string]: string;
                            };
                            spans: {
                                spanId: string;
                                parentSpanId: string | null;
                                name: string;
                                kind: string;
                                startTime: string | null;
                                durationMs: number;
                                statusCode: number;
                                attributes: {
                                    [key: string]: string;
                                };
                                events: {
                                    time: string | null;
                                    name: string;
                                    attributes: {
                                        [key: string]: string;
                                    };
                                }[];
                            }[];
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/metrics/discover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Metric names seen in the range with their dimensions and up to 50 values each */
        get: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                    /** @description ISO 8601; default toDate - 24 h */
                    fromDate?: string;
                    /** @description ISO 8601; default now; at most 31 days after fromDate */
                    toDate?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            metrics: {
                                name: string;
                                points: number;
                                lastSeen: string;
                                dimensions: {
                                    key: string;
                                    values: string[];
                                }[];
                            }[];
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/metrics/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** One metric aggregated per time bucket, grouped by dimensions (at most 50 series) */
        post: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description ISO 8601 start (inclusive); default toDate - 24 h */
                        fromDate?: string;
                        /** @description ISO 8601 end (exclusive); default now; at most 31 days after fromDate */
                        toDate?: string;
                        name: string;
                        /**
                         * @default avg
                         * @enum {string}
                         */
                        aggregation?: "avg" | "sum" | "min" | "max" | "count" | "p50" | "p90" | "p95" | "p99";
                        /** @description dimension keys, or serverName */
                        groupBy?: string[];
                        /** @description Conjunction of conditions on the route's filterable fields; map columns as "attributes.<key>". */
                        filters?: {
                            field: string;
                            /** @enum {string} */
                            op: "eq" | "neq" | "contains" | "gt" | "gte" | "lt" | "lte";
                            value: string | number | boolean;
                        }[];
                        /** @description default: chosen from the range */
                        bucketSeconds?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            name: string;
                            aggregation: string;
                            bucketSeconds: number;
                            bucketStarts: number[];
                            series: {
                                group: {
                                    [key: string]: string;
                                };
                                values: (number | null)[];
                            }[];
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Homepage figures over the range */
        post: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description ISO 8601 start (inclusive); default toDate - 24 h */
                        fromDate?: string;
                        /** @description ISO 8601 end (exclusive); default now; at most 31 days after fromDate */
                        toDate?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            fromDate: string;
                            toDate: string;
                            requests: number;
                            serverErrors: number;
                            clientErrors: number;
                            errorRate: number;
                            p95Ms: number | null;
                            tasks: number;
                            /** @description failed runs: a server-error status (an OpenTelemetry span with an ERROR status) or an exception recorded on the run (the report protocol sends tasks with status 0) */
                            taskFailures: number;
                            exceptions: number;
                            issues: number;
                            aiCalls: number;
                            aiCost: number;
                            sessions: number;
                            /** @description Log records received in the range (a re-sent batch may count twice) */
                            logs: number;
                            /** @description Metric points received in the range (a re-sent batch may count twice) */
                            metricPoints: number;
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The homepage charts: requests, server errors, P95, exceptions and task runs per bucket */
        get: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                    /** @description ISO 8601; default toDate - 24 h */
                    fromDate?: string;
                    /** @description ISO 8601; default now; at most 31 days after fromDate */
                    toDate?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            bucketSeconds: number;
                            bucketStarts: number[];
                            requests: number[];
                            serverErrors: number[];
                            p95Ms: (number | null)[];
                            exceptions: number[];
                            tasks: number[];
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboard/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The homepage's figures and its top 5 endpoints by Impact, read together (one pass over the endpoints for both) */
        get: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                    /** @description ISO 8601; default toDate - 24 h */
                    fromDate?: string;
                    /** @description ISO 8601; default now; at most 31 days after fromDate */
                    toDate?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            stats: {
                                fromDate: string;
                                toDate: string;
                                requests: number;
                                serverErrors: number;
                                clientErrors: number;
                                errorRate: number;
                                p95Ms: number | null;
                                tasks: number;
                                /** @description failed runs: a server-error status (an OpenTelemetry span with an ERROR status) or an exception recorded on the run (the report protocol sends tasks with status 0) */
                                taskFailures: number;
                                exceptions: number;
                                issues: number;
                                aiCalls: number;
                                aiCost: number;
                                sessions: number;
                                /** @description Log records received in the range (a re-sent batch may count twice) */
                                logs: number;
                                /** @description Metric points received in the range (a re-sent batch may count twice) */
                                metricPoints: number;
                            };
                            endpoints: {
                                name: string;
                                requests: number;
                                impact: number;
                                reason: string;
                                p95Ms: number | null;
                                errorRate: number;
                            }[];
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Log records, filtered and paginated (the spec's log search body) */
        post: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description ISO 8601 start (inclusive); default toDate - 24 h */
                        fromDate?: string;
                        /** @description ISO 8601 end (exclusive); default now; at most 31 days after fromDate */
                        toDate?: string;
                        serviceName?: string;
                        /** @description OpenTelemetry severity number (9 INFO, 13 WARN, 17 ERROR) */
                        minSeverity?: number;
                        traceId?: string;
                        /** @description attribute filters: "attributes.<key>", "resource.<key>", or severityText, severityNumber, body, spanId */
                        filters?: {
                            field: string;
                            /** @enum {string} */
                            op: "eq" | "neq" | "contains" | "gt" | "gte" | "lt" | "lte";
                            value: string | number | boolean;
                        }[];
                        /** @description free text, case-insensitive substring of the body; over more than 24 h it needs another selector */
                        search?: string;
                        /**
                         * @default timestamp
                         * @enum {string}
                         */
                        orderBy?: "timestamp" | "severity" | "serviceName";
                        /**
                         * @default desc
                         * @enum {string}
                         */
                        sortDirection?: "asc" | "desc";
                        pagination: {
                            page: number;
                            pageSize: number;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                timestamp: string | null;
                                observedTimestamp: string | null;
                                severityNumber: number;
                                severityText: string;
                                body: string;
                                traceId: string | null;
                                spanId: string | null;
                                serviceName: string;
                                attributes: {
                                    [key: string]: string;
                                };
                                resourceAttributes: {
                                    [key: string]: string;
                                };
                            }[];
                            page: number;
                            pageSize: number;
                            total?: number;
                            hasMore: boolean;
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Browser sessions started in the range, newest first; filters url, path, userAgent, clientIp, durationMs, attributes.<key> */
        post: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description ISO 8601 start (inclusive); default toDate - 24 h */
                        fromDate?: string;
                        /** @description ISO 8601 end (exclusive); default now; at most 31 days after fromDate */
                        toDate?: string;
                        pagination?: {
                            page: number;
                            pageSize: number;
                        };
                        /** @description Conjunction of conditions on the route's filterable fields; map columns as "attributes.<key>". */
                        filters?: {
                            field: string;
                            /** @enum {string} */
                            op: "eq" | "neq" | "contains" | "gt" | "gte" | "lt" | "lte";
                            value: string | number | boolean;
                        }[];
                        search?: string;
                        /** @enum {string} */
                        orderBy?: "startedAt";
                        /** @enum {string} */
                        sortDirection?: "asc" | "desc";
                        hasErrors?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                id: string;
                                startedAt: string | null;
                                endedAt: string | null;
                                durationMs: number | null;
                                clientIp: string;
                                url: string | null;
                                userAgent: string | null;
                                attributes: {
                                    [key: string]: string;
                                };
                                distributedTraceId: string | null;
                                errorCount: number;
                                recordingSegments: number;
                            }[];
                            page: number;
                            pageSize: number;
                            total?: number;
                            hasMore: boolean;
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One session with its attributes, linked exceptions and recording segments */
        get: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            startedAt: string | null;
                            endedAt: string | null;
                            durationMs: number | null;
                            clientIp: string;
                            url: string | null;
                            userAgent: string | null;
                            attributes: {
                                [key: string]: string;
                            };
                            distributedTraceId: string | null;
                            errorCount: number;
                            recordingSegments: number;
                            exceptions: {
                                hash: string;
                                recordedAt: string | null;
                                title: string;
                                isMessage: boolean;
                            }[];
                            segments: {
                                segmentIndex: number;
                                startedAt: string | null;
                                endedAt: string | null;
                                eventCount: number;
                                byteSize: number;
                            }[];
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/{id}/recording": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The session recording: {"sessionId", "segments": [{segmentIndex, startedAt, endedAt, logs, actions, events}]} in segmentIndex order, streamed; a segment whose stored events cannot be read has events [] and unreadable: true. 404 when the session has no segment or is not found by GET /api/sessions/{id} (a session started before its plan keeps has no recording, however late its segments arrived) */
        get: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description application/json stream */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Saved dashboards of the project (at most 500) */
        get: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            dashboards: {
                                id: string;
                                name: string;
                                definition: {
                                    [key: string]: unknown;
                                };
                                createdBy: string | null;
                                createdAt: string;
                                updatedAt: string;
                            }[];
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Save a dashboard (write role; 422 when the project holds 500 already, or the definition is nested deeper than 32 levels or larger than 256 KB) */
        post: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        /** @description panels and layout, opaque to the service; at most 32 levels deep and 256 KB */
                        definition?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            definition: {
                                [key: string]: unknown;
                            };
                            createdBy: string | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dashboards/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One saved dashboard */
        get: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            definition: {
                                [key: string]: unknown;
                            };
                            createdBy: string | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        /** Rename or redefine a saved dashboard (write role) */
        put: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        /** @description panels and layout, opaque to the service; at most 32 levels deep and 256 KB */
                        definition?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            definition: {
                                [key: string]: unknown;
                            };
                            createdBy: string | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        post?: never;
        /** Delete a saved dashboard (write role) */
        delete: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deleted: boolean;
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exception-stack-traces/{hash}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set the status of one issue: open, resolved (optionally in the next version) or ignored (for ever, until a time, or until N more occurrences); write role */
        put: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path: {
                    hash: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "open" | "resolved" | "ignored";
                        /** @description resolved: only occurrences of an app version newer than the current one (or `version`) regress it */
                        inNextVersion?: boolean;
                        /** @description resolved in the next version: the version it is resolved in; default the app version of its latest occurrence in the last 30 days that the plan keeps (none: 422) */
                        version?: string;
                        /** @description ignored: until this ISO 8601 time */
                        until?: string;
                        /** @description ignored: until this many more occurrences */
                        occurrences?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            hash: string;
                            /** @enum {string} */
                            status: "open" | "resolved" | "ignored";
                            resolvedInVersion: string | null;
                            ignoredUntil: string | null;
                            ignoreOccurrences: number | null;
                            regressedAt: string | null;
                            regressedVersion: string | null;
                            statusChangedAt: string;
                            statusChangedBy: string | null;
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exception-stack-traces/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set the status of up to 500 issues at once; write role */
        put: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        hashes: string[];
                        /** @enum {string} */
                        status: "open" | "resolved" | "ignored";
                        /** @description resolved: only occurrences of an app version newer than the current one (or `version`) regress it */
                        inNextVersion?: boolean;
                        /** @description resolved in the next version: the version it is resolved in; default the app version of its latest occurrence in the last 30 days that the plan keeps (none: 422) */
                        version?: string;
                        /** @description ignored: until this ISO 8601 time */
                        until?: string;
                        /** @description ignored: until this many more occurrences */
                        occurrences?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                hash: string;
                                /** @enum {string} */
                                status: "open" | "resolved" | "ignored";
                                resolvedInVersion: string | null;
                                ignoredUntil: string | null;
                                ignoreOccurrences: number | null;
                                regressedAt: string | null;
                                regressedVersion: string | null;
                                statusChangedAt: string;
                                statusChangedBy: string | null;
                            }[];
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exception-stack-traces/{hash}/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Activity of one issue, newest first: first seen, status changes (who, conditions), regressions and reopenings */
        get: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                    limit?: number;
                };
                header?: never;
                path: {
                    hash: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                id: number;
                                at: string;
                                /** @enum {string} */
                                kind: "new" | "status" | "regressed" | "reopened";
                                fromStatus: string | null;
                                toStatus: string;
                                user: {
                                    id: string;
                                    name: string | null;
                                } | null;
                                detail: {
                                    [key: string]: unknown;
                                };
                            }[];
                        };
                    };
                };
                /** @description malformed body, range over 31 days, invalid pagination or filter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access to the project */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the query needs more resources than allowed: narrow the range or filter */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/distributed-traces/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every endpoint, task and AI trace sharing a distributed trace id, across the projects the caller can read, with span waterfalls */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            entities: {
                                projectId: string;
                                /** @enum {string} */
                                kind: "endpoint" | "task" | "ai";
                                id: string;
                                name: string;
                                recordedAt: string | null;
                                durationMs: number;
                                statusCode: number;
                                isRoot: boolean;
                                parentSpanId: string | null;
                                distributedTraceId: string | null;
                                serverName: string;
                                appVersion: string;
                                /** @description the caller's address (endpoints; empty for tasks and AI traces) */
                                clientIp: string;
                                attributes: {
                                    [key: string]: string;
                                };
                                spans: {
                                    spanId: string;
                                    parentSpanId: string | null;
                                    name: string;
                                    kind: string;
                                    startTime: string | null;
                                    durationMs: number;
                                    statusCode: number;
                                    attributes: {
                                        [key: string]: string;
                                    };
                                    events: {
                                        time: string | null;
                                        name: string;
                                        attributes: {
                                            [key: string]: string;
                                        };
                                    }[];
                                }[];
                            }[];
                            startedAt: string | null;
                            durationMs: number | null;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no entity of a readable project, within its plan's retention, carries this id */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alert-channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Alert channels of a project (its own and its organization's) or of an organization; secrets are never shown */
        get: {
            parameters: {
                query?: {
                    /** @description a project channel (and, when listing, the organization channels the project may use) */
                    projectId?: string;
                    /** @description without projectId: an organization channel */
                    organizationId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                id: string;
                                name: string;
                                /** @enum {string} */
                                kind: "email" | "webhook" | "slack";
                                /** @enum {string} */
                                scope: "project" | "organization";
                                organizationId: string;
                                projectId: string | null;
                                addresses?: string[];
                                url?: string;
                                urlHint?: string;
                                createdAt: string;
                                /** @description webhook signing secret: answered once, by the create route only */
                                secret?: string;
                            }[];
                        };
                    };
                };
                /** @description malformed body or parameter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access, or a role below the route's */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description no such item in this scope */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description validation failure naming the field, or a limit reached */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create an alert channel: email {addresses}, webhook {url} (answers its signing secret once), slack {url} (an incoming-webhook URL, kept encrypted); write role on the project, or admin of the organization */
        post: {
            parameters: {
                query?: {
                    /** @description a project channel (and, when listing, the organization channels the project may use) */
                    projectId?: string;
                    /** @description without projectId: an organization channel */
                    organizationId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        /** @enum {string} */
                        kind: "email" | "webhook" | "slack";
                        addresses?: string[];
                        url?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            kind: "email" | "webhook" | "slack";
                            /** @enum {string} */
                            scope: "project" | "organization";
                            organizationId: string;
                            projectId: string | null;
                            addresses?: string[];
                            url?: string;
                            urlHint?: string;
                            createdAt: string;
                            /** @description webhook signing secret: answered once, by the create route only */
                            secret?: string;
                        };
                    };
                };
                /** @description malformed body or parameter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access, or a role below the route's */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description no such item in this scope */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description validation failure naming the field, or a limit reached */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alert-channels/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an alert channel of the project (write role) or the organization (admin); rules stop using it */
        delete: {
            parameters: {
                query?: {
                    /** @description a project channel (and, when listing, the organization channels the project may use) */
                    projectId?: string;
                    /** @description without projectId: an organization channel */
                    organizationId?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deleted: boolean;
                        };
                    };
                };
                /** @description malformed body or parameter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access, or a role below the route's */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description no such item in this scope */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description validation failure naming the field, or a limit reached */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alert-channels/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a test notification through the channel now (one attempt, recorded as an alert event); write role on the project, or admin of the organization */
        post: {
            parameters: {
                query?: {
                    /** @description a project channel (and, when listing, the organization channels the project may use) */
                    projectId?: string;
                    /** @description without projectId: an organization channel */
                    organizationId?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            outcome: "delivered" | "failed";
                            responseStatus: number | null;
                            error: string | null;
                        };
                    };
                };
                /** @description malformed body or parameter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access, or a role below the route's */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description no such item in this scope */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description validation failure naming the field, or a limit reached */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alert-rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Alert rules of the project with their state */
        get: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                id: string;
                                name: string;
                                /** @enum {string} */
                                kind: "new_issue" | "regression" | "issue_frequency" | "endpoint_latency" | "error_rate" | "metric_threshold" | "log_match";
                                params: {
                                    [key: string]: unknown;
                                };
                                channelIds: string[];
                                enabled: boolean;
                                cooldownSeconds: number;
                                /** @description seconds between reminders of a firing nobody acknowledged; null: never */
                                repeatIntervalSeconds: number | null;
                                snoozedUntil: string | null;
                                /** @enum {string} */
                                state: "ok" | "firing" | "resolved";
                                stateChangedAt: string | null;
                                lastValue: number | null;
                                lastEvaluatedAt: string | null;
                                lastNotifiedAt: string | null;
                                /** @description when a person acknowledged the current firing */
                                acknowledgedAt: string | null;
                                /** @description who acknowledged the current firing (id null once the account is deleted) */
                                acknowledgedBy: {
                                    id: string | null;
                                    name: string;
                                } | null;
                                createdAt: string;
                                updatedAt: string;
                            }[];
                        };
                    };
                };
                /** @description malformed body or parameter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access, or a role below the route's */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description no such item in this scope */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description validation failure naming the field, or a limit reached */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create an alert rule (write role; at most 1000 a project); evaluated once a minute */
        post: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        /** @enum {string} */
                        kind: "new_issue" | "regression" | "issue_frequency" | "endpoint_latency" | "error_rate" | "metric_threshold" | "log_match";
                        /** @description per kind: issue_frequency {windowMinutes, threshold, hash?}; endpoint_latency {windowMinutes, percentile: p95|p99, thresholdMs, endpoint?}; error_rate {windowMinutes, thresholdPercent, minRequests?, endpoint?}; metric_threshold {windowMinutes, metric, aggregation, filters?, comparator: gt|gte|lt|lte, threshold}; log_match {windowMinutes, search?, minSeverity?, serviceName?, threshold (1-500)}; new_issue and regression take none. windowMinutes 1-1440, default 5. */
                        params?: {
                            [key: string]: unknown;
                        };
                        channelIds?: string[];
                        enabled?: boolean;
                        /** @description least time between two firing notifications */
                        cooldownSeconds?: number;
                        /** @description no notifications until this ISO 8601 time */
                        snoozedUntil?: string | null;
                        /** @description threshold rules: while the rule stays firing, unacknowledged and not snoozed, its channels are reminded (the firing's title headed REMINDER, the first line saying since when it fires) this long after its last firing notification; any whole number of seconds from 300 to 604800 (the dashboard offers 3600, 14400, 86400), or null: never. Omitted: 14400 (4 hours) when creating, unchanged when replacing. Event rules (new_issue, regression) take only null: their news is notified as it comes */
                        repeatIntervalSeconds?: number | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            kind: "new_issue" | "regression" | "issue_frequency" | "endpoint_latency" | "error_rate" | "metric_threshold" | "log_match";
                            params: {
                                [key: string]: unknown;
                            };
                            channelIds: string[];
                            enabled: boolean;
                            cooldownSeconds: number;
                            /** @description seconds between reminders of a firing nobody acknowledged; null: never */
                            repeatIntervalSeconds: number | null;
                            snoozedUntil: string | null;
                            /** @enum {string} */
                            state: "ok" | "firing" | "resolved";
                            stateChangedAt: string | null;
                            lastValue: number | null;
                            lastEvaluatedAt: string | null;
                            lastNotifiedAt: string | null;
                            /** @description when a person acknowledged the current firing */
                            acknowledgedAt: string | null;
                            /** @description who acknowledged the current firing (id null once the account is deleted) */
                            acknowledgedBy: {
                                id: string | null;
                                name: string;
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description malformed body or parameter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access, or a role below the route's */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description no such item in this scope */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description validation failure naming the field, or a limit reached */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alert-rules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One alert rule */
        get: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            kind: "new_issue" | "regression" | "issue_frequency" | "endpoint_latency" | "error_rate" | "metric_threshold" | "log_match";
                            params: {
                                [key: string]: unknown;
                            };
                            channelIds: string[];
                            enabled: boolean;
                            cooldownSeconds: number;
                            /** @description seconds between reminders of a firing nobody acknowledged; null: never */
                            repeatIntervalSeconds: number | null;
                            snoozedUntil: string | null;
                            /** @enum {string} */
                            state: "ok" | "firing" | "resolved";
                            stateChangedAt: string | null;
                            lastValue: number | null;
                            lastEvaluatedAt: string | null;
                            lastNotifiedAt: string | null;
                            /** @description when a person acknowledged the current firing */
                            acknowledgedAt: string | null;
                            /** @description who acknowledged the current firing (id null once the account is deleted) */
                            acknowledgedBy: {
                                id: string | null;
                                name: string;
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description malformed body or parameter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access, or a role below the route's */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description no such item in this scope */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description validation failure naming the field, or a limit reached */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        /** Replace an alert rule (write role); a changed kind or params start it over at ok */
        put: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        /** @enum {string} */
                        kind: "new_issue" | "regression" | "issue_frequency" | "endpoint_latency" | "error_rate" | "metric_threshold" | "log_match";
                        /** @description per kind: issue_frequency {windowMinutes, threshold, hash?}; endpoint_latency {windowMinutes, percentile: p95|p99, thresholdMs, endpoint?}; error_rate {windowMinutes, thresholdPercent, minRequests?, endpoint?}; metric_threshold {windowMinutes, metric, aggregation, filters?, comparator: gt|gte|lt|lte, threshold}; log_match {windowMinutes, search?, minSeverity?, serviceName?, threshold (1-500)}; new_issue and regression take none. windowMinutes 1-1440, default 5. */
                        params?: {
                            [key: string]: unknown;
                        };
                        channelIds?: string[];
                        enabled?: boolean;
                        /** @description least time between two firing notifications */
                        cooldownSeconds?: number;
                        /** @description no notifications until this ISO 8601 time */
                        snoozedUntil?: string | null;
                        /** @description threshold rules: while the rule stays firing, unacknowledged and not snoozed, its channels are reminded (the firing's title headed REMINDER, the first line saying since when it fires) this long after its last firing notification; any whole number of seconds from 300 to 604800 (the dashboard offers 3600, 14400, 86400), or null: never. Omitted: 14400 (4 hours) when creating, unchanged when replacing. Event rules (new_issue, regression) take only null: their news is notified as it comes */
                        repeatIntervalSeconds?: number | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            kind: "new_issue" | "regression" | "issue_frequency" | "endpoint_latency" | "error_rate" | "metric_threshold" | "log_match";
                            params: {
                                [key: string]: unknown;
                            };
                            channelIds: string[];
                            enabled: boolean;
                            cooldownSeconds: number;
                            /** @description seconds between reminders of a firing nobody acknowledged; null: never */
                            repeatIntervalSeconds: number | null;
                            snoozedUntil: string | null;
                            /** @enum {string} */
                            state: "ok" | "firing" | "resolved";
                            stateChangedAt: string | null;
                            lastValue: number | null;
                            lastEvaluatedAt: string | null;
                            lastNotifiedAt: string | null;
                            /** @description when a person acknowledged the current firing */
                            acknowledgedAt: string | null;
                            /** @description who acknowledged the current firing (id null once the account is deleted) */
                            acknowledgedBy: {
                                id: string | null;
                                name: string;
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description malformed body or parameter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access, or a role below the route's */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description no such item in this scope */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description validation failure naming the field, or a limit reached */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        post?: never;
        /** Delete an alert rule (write role) */
        delete: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deleted: boolean;
                        };
                    };
                };
                /** @description malformed body or parameter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access, or a role below the route's */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description no such item in this scope */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description validation failure naming the field, or a limit reached */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alert-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Delivery attempts of the project's alerts, newest first: rule, state, time, channel, outcome, response status */
        get: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                    ruleId?: string;
                    /** @description the next page: events older than this id */
                    beforeId?: number;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                id: number;
                                at: string;
                                ruleId: string | null;
                                ruleName: string | null;
                                /** @description null for a person's action, or once the channel is deleted */
                                channelId: string | null;
                                /** @description null for a person's action */
                                channelName: string | null;
                                /** @enum {string} */
                                state: "firing" | "resolved" | "test";
                                /**
                                 * @description a delivery that reminded of a firing, or told of its acknowledgement (null: of the state itself)
                                 * @enum {string|null}
                                 */
                                notice: "reminder" | "acknowledged" | null;
                                /** @description null for a person's action */
                                attempt: number | null;
                                /** @enum {string|null} */
                                outcome: "delivered" | "retrying" | "failed" | null;
                                responseStatus: number | null;
                                error: string | null;
                                /**
                                 * @description a person acknowledged or resolved the rule (null: a delivery attempt)
                                 * @enum {string|null}
                                 */
                                action: "acknowledged" | "resolved" | null;
                                /** @description who acted (null once the account is deleted) */
                                actorId: string | null;
                                /** @description their name, or e-mail, when they acted */
                                actorName: string | null;
                            }[];
                        };
                    };
                };
                /** @description malformed body or parameter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access, or a role below the route's */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description no such item in this scope */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description validation failure naming the field, or a limit reached */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alert-rules/{id}/acknowledge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Acknowledge a firing rule (write role): "I'm on it", shown with the rule; its channels are told ("Acknowledged by …") when its firing was notified and it is not snoozed, and its reminders stop; cleared when the rule resolves or fires anew, or when an event rule has news (notified as always). Recorded in the history */
        post: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            kind: "new_issue" | "regression" | "issue_frequency" | "endpoint_latency" | "error_rate" | "metric_threshold" | "log_match";
                            params: {
                                [key: string]: unknown;
                            };
                            channelIds: string[];
                            enabled: boolean;
                            cooldownSeconds: number;
                            /** @description seconds between reminders of a firing nobody acknowledged; null: never */
                            repeatIntervalSeconds: number | null;
                            snoozedUntil: string | null;
                            /** @enum {string} */
                            state: "ok" | "firing" | "resolved";
                            stateChangedAt: string | null;
                            lastValue: number | null;
                            lastEvaluatedAt: string | null;
                            lastNotifiedAt: string | null;
                            /** @description when a person acknowledged the current firing */
                            acknowledgedAt: string | null;
                            /** @description who acknowledged the current firing (id null once the account is deleted) */
                            acknowledgedBy: {
                                id: string | null;
                                name: string;
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description malformed body or parameter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access, or a role below the route's */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description no such item in this scope */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the rule is not firing, or this firing is already acknowledged */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description validation failure naming the field, or a limit reached */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alert-rules/{id}/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resolve a firing rule by hand (write role), e.g. an event rule, which stays firing until then; its channels are told when its firing was. A threshold rule whose condition still holds fires anew at its next evaluation. Recorded in the history */
        post: {
            parameters: {
                query: {
                    /** @description The project to read (authorized per caller). */
                    projectId: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            /** @enum {string} */
                            kind: "new_issue" | "regression" | "issue_frequency" | "endpoint_latency" | "error_rate" | "metric_threshold" | "log_match";
                            params: {
                                [key: string]: unknown;
                            };
                            channelIds: string[];
                            enabled: boolean;
                            cooldownSeconds: number;
                            /** @description seconds between reminders of a firing nobody acknowledged; null: never */
                            repeatIntervalSeconds: number | null;
                            snoozedUntil: string | null;
                            /** @enum {string} */
                            state: "ok" | "firing" | "resolved";
                            stateChangedAt: string | null;
                            lastValue: number | null;
                            lastEvaluatedAt: string | null;
                            lastNotifiedAt: string | null;
                            /** @description when a person acknowledged the current firing */
                            acknowledgedAt: string | null;
                            /** @description who acknowledged the current firing (id null once the account is deleted) */
                            acknowledgedBy: {
                                id: string | null;
                                name: string;
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description malformed body or parameter */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description missing or unknown credential (empty body) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description no access, or a role below the route's */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description no such item in this scope */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description the rule is not firing, or this firing is already acknowledged */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
                /** @description validation failure naming the field, or a limit reached */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        /**
         * CORS preflight of a browser SDK or exporter
         * @description Any origin; allows POST with the Authorization, Content-Type and Content-Encoding headers; cached for a day. Every answer of the POST route, refusals included, carries Access-Control-Allow-Origin and exposes Retry-After.
         */
        options: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Preflight accepted */
                204: {
                    headers: {
                        type?: unknown;
                        properties?: unknown;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/otel/v1/traces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * OTLP/HTTP export of traces
         * @description Authorization: Bearer <project token>. Content-Type application/x-protobuf, any other type is read as OTLP/JSON; Content-Encoding gzip optional; at most 10 MB after decompression. 200: an Export response in the request's encoding, with partial_success when records were rejected. A failed export (400, 408, 413, 429, 500, 503; 503 with Retry-After) is answered with a google.rpc.Status message to a protobuf request and with {"error": "..."} to a JSON one; 401 has an empty body.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        /**
         * CORS preflight of a browser SDK or exporter
         * @description Any origin; allows POST with the Authorization, Content-Type and Content-Encoding headers; cached for a day. Every answer of the POST route, refusals included, carries Access-Control-Allow-Origin and exposes Retry-After.
         */
        options: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Preflight accepted */
                204: {
                    headers: {
                        type?: unknown;
                        properties?: unknown;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/otel/v1/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * OTLP/HTTP export of metrics
         * @description Authorization: Bearer <project token>. Content-Type application/x-protobuf, any other type is read as OTLP/JSON; Content-Encoding gzip optional; at most 10 MB after decompression. 200: an Export response in the request's encoding, with partial_success when records were rejected. A failed export (400, 408, 413, 429, 500, 503; 503 with Retry-After) is answered with a google.rpc.Status message to a protobuf request and with {"error": "..."} to a JSON one; 401 has an empty body.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        /**
         * CORS preflight of a browser SDK or exporter
         * @description Any origin; allows POST with the Authorization, Content-Type and Content-Encoding headers; cached for a day. Every answer of the POST route, refusals included, carries Access-Control-Allow-Origin and exposes Retry-After.
         */
        options: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Preflight accepted */
                204: {
                    headers: {
                        type?: unknown;
                        properties?: unknown;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/otel/v1/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * OTLP/HTTP export of logs
         * @description Authorization: Bearer <project token>. Content-Type application/x-protobuf, any other type is read as OTLP/JSON; Content-Encoding gzip optional; at most 10 MB after decompression. 200: an Export response in the request's encoding, with partial_success when records were rejected. A failed export (400, 408, 413, 429, 500, 503; 503 with Retry-After) is answered with a google.rpc.Status message to a protobuf request and with {"error": "..."} to a JSON one; 401 has an empty body.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        /**
         * CORS preflight of a browser SDK or exporter
         * @description Any origin; allows POST with the Authorization, Content-Type and Content-Encoding headers; cached for a day. Every answer of the POST route, refusals included, carries Access-Control-Allow-Origin and exposes Retry-After.
         */
        options: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Preflight accepted */
                204: {
                    headers: {
                        type?: unknown;
                        properties?: unknown;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/otel/v1development/profiles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * OTLP/HTTP export of profiles
         * @description Authorization: Bearer <project token>. Content-Type application/x-protobuf, any other type is read as OTLP/JSON; Content-Encoding gzip optional; at most 10 MB after decompression. 200: an Export response in the request's encoding, with partial_success when records were rejected. A failed export (400, 408, 413, 429, 500, 503; 503 with Retry-After) is answered with a google.rpc.Status message to a protobuf request and with {"error": "..."} to a JSON one; 401 has an empty body.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        /**
         * CORS preflight of a browser SDK or exporter
         * @description Any origin; allows POST with the Authorization, Content-Type and Content-Encoding headers; cached for a day. Every answer of the POST route, refusals included, carries Access-Control-Allow-Origin and exposes Retry-After.
         */
        options: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Preflight accepted */
                204: {
                    headers: {
                        type?: unknown;
                        properties?: unknown;
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: 200 while the process serves */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: 200 when every store answers, 503 otherwise */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: never;
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
