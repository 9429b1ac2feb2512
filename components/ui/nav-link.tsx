"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { cn } from "./cn";

export interface NavLinkProps {
  href: string;
  children: ReactNode;
  /** Classes always applied. */
  className?: string;
  /** Classes applied when the link is the current page or a page beneath it. */
  activeClassName?: string;
  /** Classes applied otherwise. */
  inactiveClassName?: string;
  /** Match only this exact path, not pages beneath it. Default false. */
  exact?: boolean;
}

/** A link that marks itself `aria-current="page"` when the current path is (under) its href. */
export function NavLink({
  href,
  children,
  className,
  activeClassName,
  inactiveClassName,
  exact = false,
}: NavLinkProps) {
  const pathname = usePathname();
  const active = exact ? pathname === href : pathname === href || pathname.startsWith(`${href}/`);
  return (
    <Link
      href={href}
      aria-current={active ? "page" : undefined}
      className={cn(className, active ? activeClassName : inactiveClassName)}
    >
      {children}
    </Link>
  );
}
