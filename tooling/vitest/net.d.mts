/** A loopback port on which nothing listens (connecting is refused with ECONNREFUSED). */
export declare const closedPort: () => Promise<number>
